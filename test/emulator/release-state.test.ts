import { generateCatalog } from "../../src/emulator/catalog";
import { OffsetClock } from "../../src/emulator/clock";
import { monthDate } from "../../src/emulator/months";
import { ReleaseState, type ReleaseRecord } from "../../src/emulator/release-state";

const catalog = generateCatalog(1);

function setup(start: string): { clock: OffsetClock; state: ReleaseState; releases: ReleaseRecord[] } {
  // A frozen real time source: only clock.set moves the emulator's time.
  const real = Date.parse("2030-01-01T00:00:00Z");
  const clock = new OffsetClock(new Date(start), () => real);
  const releases: ReleaseRecord[] = [];
  const state = new ReleaseState(1, catalog, clock, 12, (record) => releases.push(record));
  return { clock, state, releases };
}

test("the clock passing two release instants publishes two months and fires two releases", () => {
  const { clock, state, releases } = setup("2026-11-10T18:00:00Z");
  expect(monthDate(state.sync())).toBe("2026-10-01");
  clock.set(new Date("2027-01-20T18:00:00Z"));
  expect(monthDate(state.sync())).toBe("2026-12-01");
  expect(releases.map((record) => monthDate(record.month))).toEqual(["2026-11-01", "2026-12-01"]);
});

test("manual releases add to the calendar's month", () => {
  const { state } = setup("2026-11-10T18:00:00Z");
  state.releaseNow({ revise: [], unchanged: [] });
  state.releaseNow({ revise: [], unchanged: [] });
  expect(monthDate(state.published())).toBe("2026-12-01");
});

test("lag and held-back series are behind; discontinued ones frozen", () => {
  const { state } = setup("2026-11-10T18:00:00Z");
  const lag1 = catalog.series.find((s) => s.lag === 1 && s.discontinuedMonth === undefined);
  const discontinued = catalog.series.find((s) => s.discontinuedMonth !== undefined);
  if (lag1 === undefined || discontinued === undefined) throw new Error("test data");
  const record = state.releaseNow({ revise: [], unchanged: [lag1.code] });
  expect(monthDate(state.view(lag1).lastFinal)).toBe(monthDate(record.month - 2));
  expect(state.view(discontinued).lastFinal).toBe(discontinued.discontinuedMonth);
  expect(state.view(discontinued).histChanged).toBe(false);
});

test("a revised series records a revision cut at its new last final", () => {
  const { state } = setup("2026-11-10T18:00:00Z");
  const series = catalog.series.find((s) => s.lag === 0 && s.discontinuedMonth === undefined);
  if (series === undefined) throw new Error("test data");
  const record = state.releaseNow({ revise: [series.code] });
  expect(state.view(series).revisions).toEqual([{ beforeMonth: record.month }]);
  expect(state.view(series).histChanged).toBe(true);
});
