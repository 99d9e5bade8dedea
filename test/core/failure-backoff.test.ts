import { failureBackoff, MAX_FAILURE_BACKOFF_MS } from "../../src/core/failure-backoff";

const MINUTE = 60_000;

test.each([
  [0, 0],
  [1, 5 * MINUTE],
  [2, 10 * MINUTE],
  [3, 20 * MINUTE],
  [4, 40 * MINUTE],
  [5, MAX_FAILURE_BACKOFF_MS],
  [1000, MAX_FAILURE_BACKOFF_MS],
])("after %i failures in a row the wait is %i ms", (failures, wait) => {
  expect(failureBackoff(5 * MINUTE, failures)).toBe(wait);
});
