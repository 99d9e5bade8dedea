// The pure parts of the series list and the usage panel: heading rows between product
// groups, and the usage filter.
import type { LimitsRow } from "../../src/core/engine-api";
import { listRows } from "../../src/taskpane/components/SeriesList";
import { filterLimitsRows } from "../../src/taskpane/components/UsagePanel";
import { PRODUCT_LABELS } from "../../src/taskpane/series-filters";
import { makeInfo } from "../support/series-records";

test("one product: no headings; several: a heading with its count before each group", () => {
  const energy = [makeInfo({ code: "1-1-1" }), makeInfo({ code: "1-1-2" })];
  expect(listRows(energy)).toEqual([
    { kind: "series", index: 0 },
    { kind: "series", index: 1 },
  ]);
  const mixed = [...energy, makeInfo({ code: "3-1-1", product: "commodity_price" })];
  expect(listRows(mixed)).toEqual([
    { kind: "heading", product: "energy_price", count: 2 },
    { kind: "series", index: 0 },
    { kind: "series", index: 1 },
    { kind: "heading", product: "commodity_price", count: 1 },
    { kind: "series", index: 2 },
  ]);
});

const ROWS: LimitsRow[] = [
  { product: "energy_price", dataset: "Germany", remaining: 400, total: 500 },
  { product: "industry_economics", dataset: "Germany", remaining: 500, total: 500 },
  { product: "commodity_price", dataset: "Polymers", remaining: 500, total: 500 },
];

test.each<[string, string, string[]]>([
  [
    "empty keeps all",
    "  ",
    ["energy_price|Germany", "industry_economics|Germany", "commodity_price|Polymers"],
  ],
  ["dataset, any case", "germ", ["energy_price|Germany", "industry_economics|Germany"]],
  ["product label", "commod", ["commodity_price|Polymers"]],
  ["nothing", "Narnia", []],
])("filterLimitsRows: %s", (_name, text, expected) => {
  const label = (row: LimitsRow): string => PRODUCT_LABELS[row.product];
  expect(filterLimitsRows(ROWS, text, label).map((row) => `${row.product}|${row.dataset}`)).toEqual(expected);
});
