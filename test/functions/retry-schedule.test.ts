import type { PcdErrorKind } from "../../src/core/errors";
import {
  attemptOnReturnAt,
  isPassingFailure,
  nextAttemptAt,
  type FailureTiming,
} from "../../src/functions/retry-schedule";

const NOW = Date.parse("2026-11-15T12:00:00Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

test.each<[string, FailureTiming, number, number, number | null]>([
  // [case, what the service said, timed attempts so far, random draw, due at (ms after NOW) or null]
  ["first failure: a minute", {}, 0, 0, MINUTE],
  ["second: five minutes", {}, 1, 0, 5 * MINUTE],
  ["third: fifteen minutes", {}, 2, 0, 15 * MINUTE],
  ["fourth: the schedule ran out", {}, 3, 0, null],
  ["jitter: up to a quarter more (half)", {}, 0, 0.5, MINUTE + 7_500],
  ["jitter: up to a quarter more (almost all)", {}, 0, 0.999, MINUTE + 14_985],
  ["jitter on the longest step", {}, 2, 0.999, 15 * MINUTE + 224_775],
  ["Retry-After under a minute waits a minute", { retryAfterMs: 1_000 }, 0, 0, MINUTE],
  ["Retry-After as asked, past the fixed steps", { retryAfterMs: 2 * MINUTE }, 5, 0, 2 * MINUTE],
  ["Retry-After: six timed retries at most", { retryAfterMs: 2 * MINUTE }, 6, 0, null],
  ["downtime: a minute after it ends", { until: NOW + 3 * HOUR }, 0, 0, 3 * HOUR + MINUTE],
  ["downtime over already: a minute", { until: NOW - HOUR }, 0, 0, MINUTE],
  ["downtime's end wins over Retry-After", { until: NOW + HOUR, retryAfterMs: 1_000 }, 0, 0, HOUR + MINUTE],
  // A long downtime spreads its cells by a quarter of the longest step, not of the wait.
  ["a 16-hour downtime, jittered", { until: NOW + 16 * HOUR }, 0, 0.999, 16 * HOUR + MINUTE + 224_775],
  ["a downtime of days: a day at most", { until: NOW + 72 * HOUR }, 0, 0, 24 * HOUR],
  ["downtime: six timed retries at most", { until: NOW + HOUR }, 6, 0, null],
])("%s", (_case, timing, attempts, draw, dueAfter) => {
  expect(nextAttemptAt(timing, attempts, NOW, draw)).toBe(dueAfter === null ? null : NOW + dueAfter);
});

test.each([
  [NOW - 20 * MINUTE, NOW - 5 * MINUTE],
  [NOW, NOW + 15 * MINUTE],
])(
  "after the schedule ran out, the service's return runs an attempt 15 minutes after the last (%p)",
  (last, due) => {
    expect(attemptOnReturnAt(last)).toBe(due);
  },
);

test.each<[PcdErrorKind, boolean]>([
  ["network", true],
  ["timeout", true],
  ["server", true],
  ["rate", true],
  ["unavailable", true],
  ["protocol", true],
  ["input", false],
  ["not_signed_in", false],
  ["auth", false],
  ["quota", false],
  ["plan", false],
  ["bad_request", false],
  ["not_found", false],
  ["storage", false],
])("a %s failure is retried on the schedule: %p", (kind, passing) => {
  expect(isPassingFailure(kind)).toBe(passing);
});
