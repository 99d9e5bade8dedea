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

describe("a release moves each series' last final by one month at most", () => {
  // Every third active series (about 900, some 45 of them held back at each release): enough
  // to meet every case, and a day-by-day walk stays quick.
  const active = catalog.series.filter((s, i) => s.discontinuedMonth === undefined && i % 3 === 0);
  const lastFinals = (state: ReleaseState): Map<string, number> =>
    new Map(active.map((series) => [series.code, state.view(series).lastFinal]));
  const moves = (before: Map<string, number>, after: Map<string, number>): Set<number> =>
    new Set(active.map((series) => (after.get(series.code) ?? 0) - (before.get(series.code) ?? 0)));

  test("releases in a row (no time between): series held back move one month, and stay one behind", () => {
    const { state } = setup("2026-11-10T18:00:00Z");
    let before = lastFinals(state);
    const heldBack = new Set<string>();
    for (let release = 0; release < 3; release += 1) {
      const record = state.releaseNow();
      for (const code of record.unchanged) heldBack.add(code);
      const after = lastFinals(state);
      expect([...moves(before, after)].every((move) => move === 0 || move === 1)).toBe(true);
      before = after;
    }
    // Held back at the first release, not at the others: one month behind, not caught up by two.
    const first = active.find((s) => heldBack.has(s.code) && s.lag === 0 && s.startMonth < 200);
    if (first === undefined) throw new Error("test data");
    expect(before.get(first.code)).toBeGreaterThanOrEqual(state.published() - 1);
  });

  test("a held-back series gets its month in a late update the next day, then moves one month a release", () => {
    const { clock, state } = setup("2026-11-10T18:00:00Z");
    const series = active.find((s) => s.lag === 0);
    if (series === undefined) throw new Error("test data");
    const record = state.releaseNow({ revise: [], unchanged: [series.code] });
    const updatedBefore = state.view(series).updatedAt;
    expect(state.view(series).lastFinal).toBe(record.month - 1);

    clock.set(new Date("2026-11-11T05:00:00Z")); // still November 10 in US Central Time
    expect(state.view(series).lastFinal).toBe(record.month - 1);
    expect(state.view(series).updatedAt).toBe(updatedBefore);
    clock.set(new Date("2026-11-11T18:00:00Z"));
    expect(state.view(series)).toMatchObject({ lastFinal: record.month, updatedAt: "2026-11-11" });

    // December's release (by the clock) moves it one month, like every other series.
    const before = lastFinals(state);
    clock.set(new Date("2026-12-10T18:00:00Z"));
    state.sync();
    expect(state.view(series).lastFinal).toBe(record.month + 1);
    expect([...moves(before, lastFinals(state))].every((move) => move === 0 || move === 1)).toBe(true);
  });

  test("day by day through four monthly releases and their late updates, no series moves two months", () => {
    const { clock, state } = setup("2025-10-10T18:00:00Z");
    let before = lastFinals(state);
    const seen = new Set<number>();
    for (let day = 1; day <= 130; day += 1) {
      clock.set(new Date(Date.parse("2025-10-10T18:00:00Z") + day * 86_400_000));
      state.sync();
      const after = lastFinals(state);
      for (const move of moves(before, after)) seen.add(move);
      before = after;
    }
    expect([...seen].sort()).toEqual([0, 1]);
  });
});
