import type { SeriesData, SeriesRequest } from "../../src/core/engine-api";
import { PcdError } from "../../src/core/errors";
import { requestKeyOf } from "../../src/core/request-key";
import {
  describeSeries,
  seriesProvenance,
  UNREAD_FORMULA,
  type ProvenanceEngine,
} from "../../src/workbook/series-provenance";
import { seriesInfo } from "../core/support/series-fixtures";
import { PointColumns } from "../../src/core/point-columns";

const NOW = Date.UTC(2026, 10, 20);
const FETCHED = Date.UTC(2026, 10, 19, 8);

/** The catalog knows 1-1-1 (data cached in USD) and 2-2-2 (nothing cached). */
const engine: ProvenanceEngine = {
  resolve: async (code, currency, unit): Promise<SeriesRequest> => {
    if (code !== "1-1-1" && code !== "2-2-2")
      throw new PcdError("input", `${code} is not in your subscription's catalog`);
    const info = seriesInfo({ code, productName: "Energy Prices", coverage: "Germany", location: "Berlin" });
    const requestKey = requestKeyOf({
      environment: "live",
      product: "energy_price",
      code,
      currencyId: currency === null ? null : 1,
      unitId: unit === null ? null : 2,
    });
    return { key: requestKey.id, requestKey, info };
  },
  peek: (key): SeriesData | undefined =>
    key.includes("1-1-1")
      ? {
          key,
          info: seriesInfo({ code: "1-1-1" }),
          finals: PointColumns.EMPTY,
          forecasts: PointColumns.EMPTY,
          currency: "USD",
          unit: "MWh",
          updatedAt: "2026-11-04",
          lastFinal: "2026-10",
          fetchedAt: FETCHED,
          version: 1,
        }
      : undefined,
};

describe("seriesProvenance", () => {
  test("a cached series: as the service applied it, its release, when it was retrieved, its owner", async () => {
    expect(await seriesProvenance(engine, '=PCD.VALUES("1-1-1","USD")', NOW)).toEqual([
      {
        code: "1-1-1",
        currency: "USD",
        unit: "MWh",
        releaseMonth: "2026-11",
        latestMonth: "2026-10",
        retrievedAt: "2026-11-19T08:00:00.000Z",
        description: "Assessment 1-1-1, Natural gas, Berlin",
        owner: "Energy Prices (Germany)",
      },
    ]);
  });

  test("a series not cached: the catalog's defaults and release, retrieved unknown", async () => {
    const [series] = await seriesProvenance(engine, '=PCD.VALUE("2-2-2","2026-10")', NOW);
    expect(series).toMatchObject({
      code: "2-2-2",
      currency: "EUR",
      unit: "MWh",
      releaseMonth: "2026-11",
      retrievedAt: null,
    });
  });

  test.each<[string, string, Array<[string, string]>]>([
    [
      "RELOCATE reads two series",
      '=PCD.RELOCATE(100,"1-1-1","2-2-2","2026-10")',
      [
        ["1-1-1", "Energy Prices (Germany)"],
        ["2-2-2", "Energy Prices (Germany)"],
      ],
    ],
    ["a code from a reference is kept as typed", "=PCD.VALUE(A1)", [["A1", "unknown"]]],
    ["an unknown code says why", '=PCD.VALUE("9-9-9")', [["9-9-9", "unknown"]]],
    ["LIMITS reads no series", "=PCD.LIMITS()", [["PCD.LIMITS", "PCD service"]]],
    [
      "a formula around a PCD call is listed as such, never as a code",
      '=PCD.VALUE("1-1-1")*2',
      [[UNREAD_FORMULA, "unknown"]],
    ],
    [
      "ROUND around a PCD call is listed as such",
      '=ROUND(PCD.VALUE("1-1-1"),2)',
      [[UNREAD_FORMULA, "unknown"]],
    ],
  ])("%s", async (_name, formula, expected) => {
    const series = await seriesProvenance(engine, formula, NOW);
    expect(series.map((each) => [each.code, each.owner])).toEqual(expected);
    for (const each of series) expect(each.description).not.toBe("");
  });

  test("an unknown code's description carries the catalog's cause", async () => {
    const [series] = await seriesProvenance(engine, '=PCD.VALUE("9-9-9")', NOW);
    expect(series?.description).toBe("Not described: 9-9-9 is not in your subscription's catalog");
  });
});

test.each<[string[], string]>([
  [["Gas, day-ahead", "Natural gas", "Berlin"], "Gas, day-ahead, Natural gas, Berlin"],
  [
    ["Electricity, baseload, United States", "Electricity", "United States"],
    "Electricity, baseload, United States",
  ],
  [["Aluminium", "", "LME"], "Aluminium, LME"],
])("describeSeries(%j) → %s", (parts, expected) => {
  expect(describeSeries(parts)).toBe(expected);
});

test("a formula PCD does not take apart is quoted in the description, not the code", async () => {
  const [series] = await seriesProvenance(
    { resolve: () => Promise.reject(new Error("unused")), peek: () => undefined },
    '=ROUND(PCD.VALUE("1-1-1"),2)',
    0,
  );
  expect(series?.code).toBe(UNREAD_FORMULA);
  expect(series?.description).toContain('=ROUND(PCD.VALUE("1-1-1"),2)');
});
