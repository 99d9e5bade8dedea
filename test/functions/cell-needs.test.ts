// What each data cell tells the engine it reads: the engine buys only the parts of the
// series that hold those months (docs/engine.md).
import { LATEST_ONLY, WHOLE_SERIES, type SeriesNeed } from "../../src/core/series-need";
import { parseSeriesCardArguments, seriesCardNeed } from "../../src/functions/series-card";
import { valueNeed } from "../../src/functions/value";
import { parseValuesArguments, valuesNeed, type ValuesArguments } from "../../src/functions/values";

describe("PCD.VALUE reads one month, or the latest final", () => {
  test.each<[string | null, SeriesNeed]>([
    [null, LATEST_ONLY],
    ["2024-03", { from: "2024-03", to: "2024-03" }],
    ["2027-01", { from: "2027-01", to: "2027-01" }],
  ])("month %p -> %j", (month, need) => {
    expect(valueNeed(month)).toEqual(need);
  });
});

describe("PCD.VALUES reads its date range", () => {
  const args = (patch: Partial<ValuesArguments>): ValuesArguments => ({
    code: "68520-8-1",
    currency: null,
    unit: null,
    start_date: null,
    end_date: null,
    headers: null,
    forecast: null,
    order: null,
    ...patch,
  });
  test.each<[string, Partial<ValuesArguments>, SeriesNeed]>([
    ["no dates: the whole series", {}, WHOLE_SERIES],
    ["from a month", { start_date: "2026-01" }, { from: "2026-01", to: null }],
    ["a closed range", { start_date: "2010-01", end_date: "2010-12" }, { from: "2010-01", to: "2010-12" }],
    ["up to a month", { end_date: "2012-06" }, { from: null, to: "2012-06" }],
    ["finals only, whole series", { forecast: 0 }, WHOLE_SERIES],
    ["forecasts only: the Series Values window", { forecast: 2, start_date: "2010-01" }, LATEST_ONLY],
  ])("%s", (_case, patch, need) => {
    expect(valuesNeed(parseValuesArguments(args(patch)))).toEqual(need);
  });
});

describe("PCD.SERIES reads the Series Values window, or every month with history 1", () => {
  test.each<[string, unknown, SeriesNeed]>([
    ["history omitted", null, LATEST_ONLY],
    ["history 0", 0, LATEST_ONLY],
    ["history 1", 1, WHOLE_SERIES],
  ])("%s", (_case, history, need) => {
    const request = parseSeriesCardArguments({ code: "68520-8-1", currency: null, unit: null, history });
    expect(seriesCardNeed(request.scope)).toEqual(need);
  });
});
