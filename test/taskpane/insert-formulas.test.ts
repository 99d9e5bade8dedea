import type { SeriesInfo } from "../../src/core/model";
import {
  buildFormulas,
  DEFAULT_CHOICES,
  placeFormulas,
  type FormulaChoices,
  type ResultSize,
  type StackDirection,
} from "../../src/taskpane/insert-formulas";
import { makeInfo } from "../support/series-records";

const gas = makeInfo({ code: "68520-8-1" });
const oil = makeInfo({ code: "1234-1-2" });
const costIndex = makeInfo({ code: "555-3-3", product: "industry_economics", dataType: "cost_index" });
const utility = makeInfo({ code: "777-4-4", product: "industry_economics", dataType: "utilities" });

test.each<[string, SeriesInfo[], Partial<FormulaChoices>, string[]]>([
  ["defaults: a table with nothing spelled out", [gas], {}, ['=PCD.VALUES("68520-8-1")']],
  [
    "table with every option",
    [gas],
    {
      currency: "USD",
      unit: "kWh",
      startMonth: "2020-01",
      endMonth: "2020-12",
      headers: 2,
      forecast: 0,
      order: 1,
    },
    ['=PCD.VALUES("68520-8-1","USD","kWh","2020-01","2020-12",2,0,1)'],
  ],
  [
    "one row per series",
    [gas, oil],
    { kind: "value" },
    ['=PCD.VALUE("68520-8-1")', '=PCD.VALUE("1234-1-2")'],
  ],
  [
    "value for a month in a currency",
    [gas],
    { kind: "value", month: "2024-03", currency: "USD" },
    ['=PCD.VALUE("68520-8-1","2024-03","USD")'],
  ],
  ["info: every field", [gas], { kind: "info", currency: "USD" }, ['=PCD.INFO("68520-8-1")']],
  ["info: one field", [gas], { kind: "info", field: "updated_at" }, ['=PCD.INFO("68520-8-1","updated_at")']],
  [
    "a cost index gets no currency or unit, a utility does",
    [costIndex, utility],
    { currency: "EUR", unit: "MWh" },
    ['=PCD.VALUES("555-3-3")', '=PCD.VALUES("777-4-4","EUR","MWh")'],
  ],
  [
    "escalate an amount to the latest month",
    [gas],
    { kind: "escalate", amount: "1,250,000", startMonth: "2019-01" },
    ['=PCD.ESCALATE(1250000,"68520-8-1","2019-01")'],
  ],
  [
    "escalate a cell's amount to a month in a currency",
    [gas],
    { kind: "escalate", amount: "b4", startMonth: "2019-01", endMonth: "2027-01", currency: "USD" },
    ['=PCD.ESCALATE(B4,"68520-8-1","2019-01","2027-01","USD")'],
  ],
  [
    "average over a year, one row per series",
    [gas, costIndex],
    { kind: "average", startMonth: "2025-01", endMonth: "2025-12", currency: "EUR" },
    ['=PCD.AVERAGE("68520-8-1","2025-01","2025-12","EUR")', '=PCD.AVERAGE("555-3-3","2025-01","2025-12")'],
  ],
  ["no series, no formula", [], {}, []],
])("%s", (_name, series, choices, expected) => {
  expect(buildFormulas(series, { ...DEFAULT_CHOICES, ...choices })).toEqual(expected);
});

test("a month that is not YYYY-MM stops the whole insert with the reason", () => {
  expect(() => buildFormulas([gas, oil], { ...DEFAULT_CHOICES, startMonth: "March" })).toThrow(
    'The start month "March" is not a month: use YYYY-MM, e.g. 2020-01.',
  );
});

test.each<[string, Partial<FormulaChoices>, string]>([
  [
    "escalate without an amount",
    { kind: "escalate", startMonth: "2019-01" },
    "The amount must be a number or a cell reference",
  ],
  [
    "escalate with text as amount",
    { kind: "escalate", amount: "lots", startMonth: "2019-01" },
    "The amount must be a number or a cell reference",
  ],
  [
    "escalate without a from month",
    { kind: "escalate", amount: "100" },
    "The from month is required (YYYY-MM).",
  ],
  [
    "average without an end month",
    { kind: "average", startMonth: "2025-01" },
    "The end month is required (YYYY-MM).",
  ],
])("%s: the insert stops with the reason", (_name, choices, message) => {
  expect(() => buildFormulas([gas], { ...DEFAULT_CHOICES, ...choices })).toThrow(message);
});

describe("placeFormulas", () => {
  test.each<[string, ResultSize[], StackDirection, Array<[number, number]>]>([
    [
      "single values: one row each, no gap",
      [],
      "below",
      [
        [0, 0],
        [1, 0],
        [2, 0],
      ],
    ],
    [
      "tables below each other: past the previous one's last row, one empty row between",
      [
        { rows: 251, columns: 3 },
        { rows: 148, columns: 3 },
        { rows: 99, columns: 2 },
      ],
      "below",
      [
        [0, 0],
        [252, 0],
        [401, 0],
      ],
    ],
    [
      "tables side by side: past the previous one's last column, one empty column between",
      [
        { rows: 251, columns: 3 },
        { rows: 148, columns: 2 },
        { rows: 99, columns: 3 },
      ],
      "beside",
      [
        [0, 0],
        [0, 4],
        [0, 7],
      ],
    ],
  ])("%s", (_name, sizes, stack, offsets) => {
    const placed = placeFormulas(["=a", "=b", "=c"], sizes, stack);
    expect(placed.map((item) => [item.row, item.column])).toEqual(offsets);
    expect(placed.map((item) => item.formula)).toEqual(["=a", "=b", "=c"]);
  });
});
