import { mergeAnswer, pointsDiffer, type SeriesPoints } from "../../src/core/merge";
import type { Month, MonthlyPoint } from "../../src/core/model";
import { PointColumns } from "../../src/core/point-columns";
import { points, seriesValues } from "./support/series-fixtures";

const p = (month: string, value: number): MonthlyPoint => ({ month, value });

/** The cache's points as the tables below write them: one object per point. */
interface PlainPoints {
  finals: MonthlyPoint[];
  forecasts: MonthlyPoint[];
}

function columns(plain: PlainPoints): SeriesPoints;
function columns(plain: PlainPoints | undefined): SeriesPoints | undefined;
function columns(plain: PlainPoints | undefined): SeriesPoints | undefined {
  return (
    plain && {
      finals: PointColumns.fromPoints(plain.finals),
      forecasts: PointColumns.fromPoints(plain.forecasts),
    }
  );
}

function plain(merged: SeriesPoints): PlainPoints {
  return { finals: merged.finals.toPoints(), forecasts: merged.forecasts.toPoints() };
}

function merge(
  cached: PlainPoints | undefined,
  finals: MonthlyPoint[],
  forecasts: MonthlyPoint[],
  source: "values" | "history",
): PlainPoints {
  return plain(mergeAnswer(columns(cached), seriesValues("1-2-3", finals, forecasts), source));
}

/** A repeatable sequence of numbers in [0, 1) for the random cases below. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe("mergeAnswer", () => {
  test.each<
    [string, PlainPoints | undefined, MonthlyPoint[], MonthlyPoint[], "values" | "history", PlainPoints]
  >([
    [
      "nothing cached: the answer as is, sorted oldest first",
      undefined,
      [p("2026-10", 3), p("2026-08", 1), p("2026-09", 2)],
      [p("2026-11", 4)],
      "values",
      { finals: [p("2026-08", 1), p("2026-09", 2), p("2026-10", 3)], forecasts: [p("2026-11", 4)] },
    ],
    [
      "values add new months and keep older cached ones",
      { finals: [p("2026-07", 1), p("2026-08", 1)], forecasts: [] },
      [p("2026-08", 1), p("2026-09", 2)],
      [],
      "values",
      { finals: [p("2026-07", 1), p("2026-08", 1), p("2026-09", 2)], forecasts: [] },
    ],
    [
      "the newer answer wins for a month it holds",
      { finals: [p("2026-08", 1), p("2026-09", 2)], forecasts: [] },
      [p("2026-09", 20)],
      [],
      "values",
      { finals: [p("2026-08", 1), p("2026-09", 20)], forecasts: [] },
    ],
    [
      "forecasts are replaced and a forecast month that now has a final is dropped",
      { finals: [p("2026-09", 2)], forecasts: [p("2026-10", -1), p("2026-11", -1), p("2026-12", -1)] },
      [p("2026-10", 3)],
      [p("2026-10", -9), p("2026-11", -2)],
      "values",
      { finals: [p("2026-09", 2), p("2026-10", 3)], forecasts: [p("2026-11", -2)] },
    ],
    [
      "an empty forecast list clears the forecasts",
      { finals: [p("2026-09", 2)], forecasts: [p("2026-10", -1)] },
      [p("2026-09", 2)],
      [],
      "values",
      { finals: [p("2026-09", 2)], forecasts: [] },
    ],
    [
      "a History revision replaces every cached final of its range, dropping removed months",
      { finals: [p("2026-01", 1), p("2026-02", 1), p("2026-03", 1), p("2026-04", 1)], forecasts: [] },
      [p("2026-01", 5), p("2026-03", 5)],
      [],
      "history",
      { finals: [p("2026-01", 5), p("2026-03", 5), p("2026-04", 1)], forecasts: [] },
    ],
    [
      "a History that ends before the Values window keeps the cached window months",
      { finals: [p("2025-10", 9), p("2025-11", 9), p("2025-12", 9)], forecasts: [p("2026-01", -1)] },
      [p("2025-09", 8), p("2025-10", 8)],
      [p("2026-01", -3)],
      "history",
      {
        finals: [p("2025-09", 8), p("2025-10", 8), p("2025-11", 9), p("2025-12", 9)],
        forecasts: [p("2026-01", -3)],
      },
    ],
    [
      "Values after a History that ended early fill the window without a gap",
      { finals: points("2024-01", "2025-06"), forecasts: [] },
      points("2025-01", "2026-01", () => 2),
      [],
      "values",
      { finals: [...points("2024-01", "2024-12"), ...points("2025-01", "2026-01", () => 2)], forecasts: [] },
    ],
  ])("%s", (_case, cached, finals, forecasts, source, expected) => {
    expect(merge(cached, finals, forecasts, source)).toEqual(expected);
  });

  test.each<[string, PlainPoints | undefined, MonthlyPoint[], "values" | "history"]>([
    [
      "values over cached months",
      { finals: points("2024-01", "2025-06"), forecasts: [] },
      points("2025-01", "2026-01", () => 2),
      "values",
    ],
    [
      "a History revision with a removed month",
      { finals: points("2026-01", "2026-04"), forecasts: [] },
      [p("2026-01", 5), p("2026-03", 5)],
      "history",
    ],
    ["nothing cached", undefined, points("2025-01", "2025-12", () => 3), "history"],
  ])(
    "the order an answer lists its months in does not change the merge: %s",
    (_case, cached, finals, source) => {
      const inOrder = merge(cached, finals, [], source);
      expect(merge(cached, [...finals].reverse(), [], source)).toEqual(inOrder);
      // Mixed order: odd positions first, then even ones.
      const mixed = [...finals.filter((_, i) => i % 2 === 1), ...finals.filter((_, i) => i % 2 === 0)];
      expect(merge(cached, mixed, [], source)).toEqual(inOrder);
      // Every merged month comes from the cache or the answer.
      for (const point of inOrder.finals) {
        const fromCache = cached?.finals.some((held) => held.month === point.month) ?? false;
        expect(fromCache || finals.some((answered) => answered.month === point.month)).toBe(true);
      }
    },
  );

  test("a History answer with no finals drops nothing", () => {
    const cached = { finals: [p("2026-01", 1)], forecasts: [] };
    expect(merge(cached, [], [], "history").finals).toEqual([p("2026-01", 1)]);
  });

  test("a month an answer repeats keeps the last value it lists", () => {
    expect(
      merge(undefined, [p("2026-02", 1), p("2026-01", 5), p("2026-02", 7)], [], "values").finals,
    ).toEqual([p("2026-01", 5), p("2026-02", 7)]);
  });
});

// An answer is read oldest first (the order the cache holds), newest first (the service's
// order, read backwards) or in mixed order (through a map of months). All must agree, for
// random windows, gaps, revisions and forecasts.
describe("mergeAnswer agrees for answers oldest first, newest first and in mixed order", () => {
  function someMonths(next: () => number, from: Month, to: Month, keep: number): MonthlyPoint[] {
    return points(from, to, () => Math.round(next() * 100)).filter(() => next() < keep);
  }
  const cases = Array.from({ length: 200 }, (_, seed) => seed + 1);

  test.each(cases)("random case %i", (seed) => {
    const next = random(seed);
    const pick = (months: readonly Month[]): Month => months[Math.floor(next() * months.length)] as Month;
    const starts = ["2024-01", "2024-06", "2025-01", "2025-09"];
    const ends = ["2025-06", "2025-12", "2026-03", "2026-09"];
    const cached =
      next() < 0.2
        ? undefined
        : {
            finals: someMonths(next, pick(starts), pick(ends), 0.9),
            forecasts: someMonths(next, "2026-04", "2026-12", 0.8),
          };
    const finals = someMonths(next, pick(starts), pick(ends), next() < 0.5 ? 1 : 0.7);
    const forecasts = next() < 0.3 ? [] : someMonths(next, pick(["2025-10", "2026-04"]), "2027-03", 0.9);
    const source = next() < 0.5 ? "history" : "values";
    const ordered = merge(cached, finals, forecasts, source);
    expect(merge(cached, [...finals].reverse(), [...forecasts].reverse(), source)).toEqual(ordered);
    const shuffle = (list: MonthlyPoint[]): MonthlyPoint[] =>
      list
        .map((point) => ({ point, at: next() }))
        .sort((a, b) => a.at - b.at)
        .map(({ point }) => point);
    expect(merge(cached, shuffle(finals), shuffle(forecasts), source)).toEqual(ordered);
  });
});

// The rule written plainly, one month at a time: a History answer drops the cached finals
// from its first to its last month; the answer's month wins over an equal cached one.
describe("mergeAnswer's finals follow the rule month by month", () => {
  function reference(
    cached: MonthlyPoint[],
    answer: MonthlyPoint[],
    source: "values" | "history",
  ): MonthlyPoint[] {
    const byMonth = new Map<Month, number>();
    const months = answer.map((point) => point.month).sort();
    const [first, last] = [months[0] ?? "", months[months.length - 1] ?? ""];
    for (const point of cached) {
      const revised = source === "history" && point.month >= first && point.month <= last;
      if (!revised) byMonth.set(point.month, point.value);
    }
    for (const point of answer) byMonth.set(point.month, point.value);
    return [...byMonth.keys()].sort().map((month) => p(month, byMonth.get(month) as number));
  }

  test.each(Array.from({ length: 200 }, (_, seed) => seed + 1))("random case %i", (seed) => {
    const next = random(seed);
    const within = (from: Month, to: Month, keep: number): MonthlyPoint[] =>
      points(from, to, () => Math.round(next() * 1000)).filter(() => next() < keep);
    const cached = within("2007-01", "2026-10", next() < 0.5 ? 1 : 0.8);
    const [from, to] = [
      ["2008-03", "2025-12"],
      ["2025-09", "2026-11"],
      ["2026-01", "2026-04"],
    ][Math.floor(next() * 3)] as [Month, Month];
    const answer = within(from, to, next() < 0.5 ? 1 : 0.7);
    const source = next() < 0.5 ? "history" : "values";
    expect(merge({ finals: cached, forecasts: [] }, answer, [], source).finals).toEqual(
      reference(cached, answer, source),
    );
  });
});

describe("pointsDiffer", () => {
  const base = { finals: [p("2026-01", 1)], forecasts: [p("2026-02", -1)] };
  test.each<[string, PlainPoints | undefined, PlainPoints, boolean]>([
    ["identical", base, { finals: [p("2026-01", 1)], forecasts: [p("2026-02", -1)] }, false],
    ["a changed value", base, { finals: [p("2026-01", 2)], forecasts: [p("2026-02", -1)] }, true],
    ["a new month", base, { finals: [p("2026-01", 1), p("2026-02", 3)], forecasts: [] }, true],
    ["a changed forecast", base, { finals: [p("2026-01", 1)], forecasts: [p("2026-02", -2)] }, true],
    ["first data", undefined, base, true],
    ["first answer empty", undefined, { finals: [], forecasts: [] }, false],
  ])("%s", (_case, before, after, expected) => {
    expect(pointsDiffer(columns(before), columns(after))).toBe(expected);
  });
});
