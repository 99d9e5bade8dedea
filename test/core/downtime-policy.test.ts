// The downtime policy on its own: the calendar's state, a maintenance the service announced,
// release day ended by the first answer, and the error a call that is not made carries.
import { DowntimePolicy } from "../../src/core/downtime-policy";
import type { ServiceReachability, ServiceState } from "../../src/core/engine-api";

const NOW = Date.UTC(2026, 10, 10, 16);
const UNTIL = Date.UTC(2026, 10, 11, 4);

const open: ServiceState = {
  available: true,
  reason: null,
  until: null,
  nextRelease: Date.UTC(2026, 11, 8),
  nextMaintenance: Date.UTC(2026, 10, 15),
};

function policy(
  scheduled: (options: { releaseDoneAt?: number }) => ServiceState,
  reachability?: ServiceReachability,
) {
  return new DowntimePolicy({
    now: () => NOW,
    scheduled: (_now, options) => scheduled(options),
    reachability: () => reachability,
    formatTime: (epochMs) => new Date(epochMs).toISOString(),
  });
}

const reachable = (maintenanceUntil: number | null): ServiceReachability => ({
  unreachableSince: null,
  reason: null,
  maintenanceUntil,
  lastAnswerAt: NOW - 1000,
});

describe("DowntimePolicy.errorFor", () => {
  test.each([
    ["an open service: no error", open, undefined, undefined, undefined],
    [
      "scheduled maintenance, with cache",
      { ...open, available: false, reason: "maintenance", until: UNTIL },
      true,
      "The service is down for maintenance until 22:00 US Central Time (2026-11-11T04:00:00.000Z your time); showing cached data for 1-2-3.",
      "maintenance",
    ],
    [
      "release day, without cache",
      { ...open, available: false, reason: "release", until: UNTIL },
      false,
      "The service is down for the monthly data release until 22:00 US Central Time at the latest (2026-11-11T04:00:00.000Z your time); no cached data for 1-2-3 yet.",
      "release",
    ],
  ] as const)("%s", (_case, state, hasCache, message, downtime) => {
    const error = policy(() => state).errorFor("1-2-3", hasCache ?? false);
    if (message === undefined) expect(error).toBeUndefined();
    else expect(error).toMatchObject({ kind: "unavailable", message, details: { until: UNTIL, downtime } });
  });

  test("a maintenance the service announced (503 with an end) is told as the service said it", () => {
    const down = policy(() => open, reachable(UNTIL));
    expect(down.state()).toMatchObject({ available: false, reason: "maintenance", until: UNTIL });
    expect(
      down.errorFor("Energy", false, "the Data Limits of energy_price cannot be read meanwhile")?.message,
    ).toBe(
      "The service said it is in maintenance until 2026-11-11T04:00:00.000Z (your time); the Data Limits of energy_price cannot be read meanwhile.",
    );
    expect(down.errorFor("Energy", false)?.details.downtime).toBe("announced");
  });

  test("an announced maintenance that has ended counts no more", () => {
    expect(policy(() => open, reachable(NOW - 1)).state()).toMatchObject({ available: true });
  });
});

test("on release day, the service's first answer ends the downtime (the calendar is told when)", () => {
  const seen: Array<number | undefined> = [];
  const releaseDay = policy((options) => {
    seen.push(options.releaseDoneAt);
    return options.releaseDoneAt === undefined
      ? { ...open, available: false, reason: "release", until: UNTIL }
      : open;
  });
  expect(releaseDay.errorFor("1-2-3", false)).toBeDefined();
  releaseDay.noteServiceAnswered();
  expect(releaseDay.errorFor("1-2-3", false)).toBeUndefined();
  expect(seen.at(-1)).toBe(NOW);
});

test("an answer outside release day changes nothing", () => {
  const seen: Array<number | undefined> = [];
  const maintenance = policy((options) => {
    seen.push(options.releaseDoneAt);
    return { ...open, available: false, reason: "maintenance", until: UNTIL };
  });
  maintenance.noteServiceAnswered();
  expect(maintenance.errorFor("1-2-3", false)).toBeDefined();
  expect(seen.every((doneAt) => doneAt === undefined)).toBe(true);
});

// Through a team gateway an answer may come from what it keeps while the service is still closed:
// only new data ends release day. A row per way the policy hears of the release.
test.each<[string, boolean, (policy: DowntimePolicy) => void, boolean]>([
  ["an answer, from the service", true, (p) => p.noteServiceAnswered(), true],
  ["an answer, through a gateway", false, (p) => p.noteServiceAnswered(), false],
  // The engine passes only catalogs read with no release awaited (a gateway's copy is not one).
  [
    "a catalog answer kept from before a restart, from the service",
    true,
    (p) => p.answeredBefore(NOW - 60_000),
    true,
  ],
  [
    "a catalog answer kept from before a restart, through a gateway",
    false,
    (p) => p.answeredBefore(NOW - 60_000),
    true,
  ],
  ["new data in the catalog, from the service", true, (p) => p.noteNewData(), true],
  ["new data in the catalog, through a gateway", false, (p) => p.noteNewData(), true],
])("release day, %s: the downtime ends or not as the row says", (_case, answersShowRelease, hear, ends) => {
  const releaseDay = new DowntimePolicy({
    now: () => NOW,
    scheduled: (_now, options) =>
      options.releaseDoneAt === undefined
        ? { ...open, available: false, reason: "release", until: UNTIL }
        : open,
    reachability: () => undefined,
    answersShowRelease: () => answersShowRelease,
  });
  hear(releaseDay);
  expect(releaseDay.state().available).toBe(ends);
});
