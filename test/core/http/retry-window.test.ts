// Retries start only within the retry window, so a call ends within callDurationBoundMs
// however slowly the service fails (the cell watchdog relies on it).
import { DEFAULT_SETTINGS } from "../../../src/core/settings";
import { DEFAULT_RETRY_POLICY, callDurationBoundMs } from "../../../src/core/http/retry-policy";
import { SLOW_SCRIPTS, after, timeSlowCall, type CallName } from "../../support/slow-service";

const CALLS: Array<[CallName, number]> = [
  ["seriesInfo", DEFAULT_SETTINGS.callTimeoutMs],
  ["seriesHistory", DEFAULT_SETTINGS.historyTimeoutMs],
  ["seriesValues", DEFAULT_SETTINGS.callTimeoutMs],
];

describe.each(CALLS)("%s (attempt timeout %i ms)", (call, timeoutMs) => {
  test.each(Object.entries(SLOW_SCRIPTS))(
    "%s: the call ends within the window plus one timeout",
    async (_, script) => {
      const { elapsedMs } = await timeSlowCall(call, script);
      expect(elapsedMs).toBeLessThanOrEqual(callDurationBoundMs(timeoutMs));
    },
  );
});

test("a call that fails slowly is not sent again after the window", async () => {
  // Before the window, each of the 5 attempts could take the whole 130 s timeout.
  const slow = await timeSlowCall("seriesInfo", (clock, t) => [after(clock, t - 1, 503, 1)]);
  expect(slow.attempts).toBe(1);
});

test("quick failures still get every retry the policy allows", async () => {
  const quick = await timeSlowCall("seriesValues", (clock) => [after(clock, 10, 502)]);
  expect(quick.attempts).toBe(1 + DEFAULT_RETRY_POLICY.maxRetries);
});
