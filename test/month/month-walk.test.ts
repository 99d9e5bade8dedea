// The month simulation suite. A month walk lives through December 2026 as a user of the
// workbook does (support/month-script.ts: ordinary days, release day with its downtime and
// its publication at a seeded hour, the late updates, a 503 storm, a network drop and its
// recovery, an off-schedule release, a token that expires and cannot be renewed, both
// maintenance windows, a History-only revision), with the real engine and custom functions
// driven as the headless runner drives them, against the in-process emulator. One fake
// clock carries the engine's injected clock, every Date.now/setTimeout in the code and the
// emulator's clock, so the walk takes seconds and is the same on every run (the cells'
// retry jitter is seeded too). The walk records what was said, charged and called
// (support/month-walk.ts); each invariant (support/invariants.ts) is then a test that names
// every step where it broke.
//
// To add a step, see support/month-script.ts. To add an invariant, add a named check to
// support/invariants.ts, reading what the walk records (record more there if needed), and
// a row to INVARIANTS below.
import * as invariants from "./support/invariants";
import { seededRandom } from "./support/month-lab";
import { MONTH_SEED, MONTH_START } from "./support/month-script";
import { walkMonth, type MonthRecord } from "./support/month-walk";

let record: MonthRecord | undefined;

beforeAll(async () => {
  // setImmediate and nextTick stay real: they carry the emulator's answers (see month-lab.ts).
  jest.useFakeTimers({
    now: Date.parse(MONTH_START),
    doNotFake: ["nextTick", "setImmediate", "clearImmediate", "queueMicrotask"],
  });
  jest.spyOn(Math, "random").mockImplementation(seededRandom(MONTH_SEED));
  try {
    record = await walkMonth();
  } finally {
    jest.restoreAllMocks();
    jest.useRealTimers();
  }
}, 60_000);

function walked(): MonthRecord {
  if (record === undefined) throw new Error("the month walk did not run");
  return record;
}

test("the walk lives through every step of the month", () => {
  const { errors, observations, refreshes } = walked();
  expect(errors).toEqual([]);
  expect(observations.length).toBeGreaterThan(20);
  expect(refreshes.map((refresh) => refresh.step)).toEqual([
    "Refresh now in the release-day downtime",
    "refresh after the release",
    "off-schedule release",
    "History-only revision",
  ]);
});

const INVARIANTS: ReadonlyArray<{ name: string; check: invariants.Invariant }> = [
  {
    name: "the engine and the cells tell the service's state",
    check: invariants.serviceStateIsTold,
  },
  {
    name: "a refresh is offered only once the release is published",
    check: invariants.refreshOfferIsTrue,
  },
  {
    name: "no call during announced downtime but documented probes",
    check: invariants.noCallInAnnouncedDowntime,
  },
  {
    name: "no operation is called more than the stated number of times an hour",
    check: invariants.noCallLoop,
  },
  { name: "Usage equals the service's Data Limits", check: invariants.usageIsDataLimits },
  {
    name: "the cost preview equals what the refresh charges",
    check: invariants.previewIsCharge,
  },
  {
    name: "after refresh-all the recalculation makes no data call",
    check: invariants.recalculationAfterRefreshIsFree,
  },
  {
    name: "messages quote the series, not the part cached",
    check: invariants.messagesQuoteTheSeries,
  },
  {
    name: "every cell settles after the service is back",
    check: invariants.cellsSettleAfterBack,
  },
];

for (const { name, check } of INVARIANTS) {
  test(`invariant: ${name}`, () => {
    check(walked());
  });
}
