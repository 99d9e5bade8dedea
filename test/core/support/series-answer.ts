// Reads a data call's answer (SeriesAnswer) in tests that expect series: a code that came
// back as an error fails the test with that error's message instead of reading as data.
import { PcdError } from "../../../src/core/errors";
import type { SeriesValues } from "../../../src/core/model";
import type { SeriesAnswer } from "../../../src/core/service-client";

export function seriesIn(answer: SeriesAnswer, code: string): SeriesValues | undefined {
  const entry = answer.get(code);
  if (entry instanceof PcdError) throw new Error(`${code} came back as an error: ${entry.message}`);
  return entry;
}

/** Every series of the answer; an error among them fails the test. */
export function seriesOf(answer: SeriesAnswer): SeriesValues[] {
  return [...answer.keys()].map((code) => seriesIn(answer, code) as SeriesValues);
}
