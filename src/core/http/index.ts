// The transport half of the engine: the ServiceClient over HTTP and its building blocks.
export {
  createServiceClient,
  type ServiceClientDeps,
  type TokenSource,
  type TransportClient,
} from "./service-client-impl";
export { buildCodesSegment, isValidCode, CODE_PATTERN } from "./codes-segment";
export { MAX_CODES_PER_CALL } from "../service-client";
export { operationUrl, accessTokenUrl, type ServiceOperation } from "./paths";
export { deriveDataType, type DataTypeHints } from "./data-type";
export { classifyHttpFailure, type HttpFailure, type FailureContext } from "./http-failure";
export { isRetryable, formatLocalTime, OPERATION_LABELS } from "./classify";
export { classifyFetchRejection } from "./fetch-rejection";
export { DEFAULT_RETRY_POLICY, backoffDelay, type RetryPolicy } from "./retry-policy";
export { DEFAULT_MAX_IN_FLIGHT, DEFAULT_REQUESTS_PER_SECOND } from "./request-gate";
export { parseSeriesInfoList, parseSeriesValuesList, parseDataLimits } from "./schemas";
export { extractServerMessage } from "./error-body";
export { redactSecrets } from "./server-message";
export { parseRetryAfter } from "./retry-after";
