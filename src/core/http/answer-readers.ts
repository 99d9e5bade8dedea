// What reads the service's answers: the answer schemas (with the normalising and the point
// reading only they use; the validation library stays at start, for the stored data) and the
// reading of a failure answer. Excel loads the functions runtime each time it starts,
// with or without a workbook that asks for data, so this code is a chunk of its own, loaded
// before a client's first call leaves (service-client-impl.ts): an answer never arrives before
// the code that reads it.
export { parseDataLimits, parseSeriesInfoList, parseSeriesValuesList } from "./schemas";
export { classifyHttpFailure } from "./http-failure";
export { classifyFetchRejection } from "./fetch-rejection";
