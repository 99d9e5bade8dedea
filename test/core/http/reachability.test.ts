import { PcdError, type PcdErrorKind } from "../../../src/core/errors";
import { ReachabilityTracker } from "../../../src/core/http/reachability";

// Status and the outage probe follow the tracker's changes: through a team gateway in a window,
// the service's 503 passed on (the window) and the gateway's own failure (an outage) differ.
test.each<[string, [number, PcdErrorKind], [number, PcdErrorKind], boolean]>([
  [
    "the service's 503 in a window, then the gateway's own 502: told",
    [503, "unavailable"],
    [502, "server"],
    true,
  ],
  [
    "the gateway's own 502, then the service's 503 in a window: told",
    [502, "server"],
    [503, "unavailable"],
    true,
  ],
  ["the gateway's own 502, then its own 500: not told again", [502, "server"], [500, "server"], false],
])("%s", (_case, [firstStatus, firstKind], [nextStatus, nextKind], told) => {
  const tracker = new ReachabilityTracker();
  tracker.answered(1000, firstStatus, new PcdError(firstKind, "first", { status: firstStatus }));
  let changes = 0;
  tracker.onChange(() => (changes += 1));
  tracker.answered(2000, nextStatus, new PcdError(nextKind, "next", { status: nextStatus }));
  expect(tracker.current().failingInWindow).toBe(nextKind === "unavailable");
  expect(changes > 0).toBe(told);
});
