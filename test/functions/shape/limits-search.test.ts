import type { LimitsRow, LimitsUnavailable, SearchHit } from "../../../src/core/engine-api";
import { PcdError } from "../../../src/core/errors";
import type { ProductId } from "../../../src/core/model";
import type { CellTable } from "../../../src/functions/cell-value";
import { buildLimitsTable, datasetRemaining } from "../../../src/functions/shape/limits-table";
import { buildSearchTable } from "../../../src/functions/shape/search-table";
import { MAX_ERROR_MESSAGE_LENGTH } from "../../../src/functions/cell-errors";
import { makeInfo } from "../../support/series-records";

const ROWS: LimitsRow[] = [
  { product: "industry_economics", dataset: "Germany", remaining: 40, total: 50 },
  { product: "energy_price", dataset: "Germany", remaining: 480, total: 500 },
  { product: "energy_price", dataset: "France", remaining: 500, total: 500 },
  { product: "commodity_price", dataset: "Polymers", remaining: 12, total: 300 },
];

test("the limits table has a header and rows in product order, datasets alphabetically", () => {
  expect(buildLimitsTable(ROWS, null)).toEqual([
    ["Product", "Dataset", "Remaining", "Total"],
    ["Energy Price", "France", 500, 500],
    ["Energy Price", "Germany", 480, 500],
    ["Commodity Price", "Polymers", 12, 300],
    ["Industry Economics", "Germany", 40, 50],
  ]);
});

test("a product narrows the table", () => {
  expect(buildLimitsTable(ROWS, "commodity_price")).toEqual([
    ["Product", "Dataset", "Remaining", "Total"],
    ["Commodity Price", "Polymers", 12, 300],
  ]);
});

const DOWN = "The service is down for maintenance until 22:00 US Central Time.";
const NOTE = `Data Limits could not be read: ${DOWN}`;
const unread = (product: ProductId, message = DOWN): LimitsUnavailable => ({
  product,
  message,
  error: new PcdError("unavailable", message),
});

test.each<[string, LimitsRow[], ProductId | null, LimitsUnavailable[], CellTable]>([
  [
    "an unread product gets one row in its place, saying why",
    ROWS.filter((row) => row.product !== "commodity_price"),
    null,
    [unread("commodity_price")],
    [
      ["Product", "Dataset", "Remaining", "Total"],
      ["Energy Price", "France", 500, 500],
      ["Energy Price", "Germany", 480, 500],
      ["Commodity Price", NOTE, "", ""],
      ["Industry Economics", "Germany", 40, 50],
    ],
  ],
  [
    "every unread product is named, in product order",
    ROWS.filter((row) => row.product === "commodity_price"),
    null,
    [unread("industry_economics", "HTTP 503 from Data Limits"), unread("energy_price")],
    [
      ["Product", "Dataset", "Remaining", "Total"],
      ["Energy Price", NOTE, "", ""],
      ["Commodity Price", "Polymers", 12, 300],
      ["Industry Economics", "Data Limits could not be read: HTTP 503 from Data Limits", "", ""],
    ],
  ],
])("%s", (_case, rows, product, unavailable, expected) => {
  expect(buildLimitsTable(rows, product, unavailable)).toEqual(expected);
});

test("a long cause is cut so the note fits Excel's 255 characters", () => {
  const [, row] = buildLimitsTable([], null, [unread("energy_price", "x".repeat(400))]);
  const note = String(row?.[1]);
  expect(note).toMatch(/^Data Limits could not be read: x+…$/);
  expect(note.length).toBe(255);
});

test.each([
  ["polymers", null, 12],
  ["France", null, 500],
  ["germany", "energy_price", 480],
  ["Germany", "industry_economics", 40],
] as const)("dataset %s (product %s) has %d remaining", (dataset, product, remaining) => {
  expect(datasetRemaining(ROWS, dataset, product)).toBe(remaining);
});

test.each([
  [
    "Germany",
    null,
    "product",
    'The dataset "Germany" exists in Energy Price and Industry Economics: add the product, e.g. PCD.LIMITS("Germany", "energy") or PCD.LIMITS("Germany", "industry").',
  ],
  ["Spain", null, "dataset", 'The dataset "Spain" is not subscribed; datasets: France, Germany, Polymers.'],
  [
    "Polymers",
    "energy_price",
    "dataset",
    'The dataset "Polymers" is not subscribed in Energy Price; datasets: France, Germany.',
  ],
  ["Spain", null, "dataset", undefined],
] as const)("dataset %s (product %s) is an input error on %s", (dataset, product, argument, message) => {
  expect(() => datasetRemaining(ROWS, dataset, product)).toThrow(
    expect.objectContaining({
      kind: "input",
      details: expect.objectContaining({ argument }),
      ...(message ? { message } : {}),
    }),
  );
});

test("a long dataset list is cut to fit Excel's message", () => {
  const many: LimitsRow[] = Array.from({ length: 40 }, (_, i) => ({
    product: "energy_price",
    dataset: `Country number ${i + 10}`,
    remaining: 1,
    total: 1,
  }));
  let message = "";
  try {
    datasetRemaining(many, "Atlantis", null);
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toMatch(
    /^The dataset "Atlantis" is not subscribed; datasets: Country number 10, .*, and \d+ more\.$/,
  );
  expect(message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH);
});

test("no subscribed datasets at all is said plainly", () => {
  expect(() => datasetRemaining([], "Germany", null)).toThrow(
    'The dataset "Germany" is not subscribed: no datasets are.',
  );
});

// Through a team gateway that gives the member a budget, Remaining and Total stay the team's
// and two columns follow; without budgets the table keeps its four columns.
const budget = (row: LimitsRow, member: { budget: number; remaining: number }): LimitsRow => ({
  ...row,
  member,
});
const [IE_GERMANY, EP_GERMANY, EP_FRANCE, CP_POLYMERS] = ROWS as [LimitsRow, LimitsRow, LimitsRow, LimitsRow];
const WITH_BUDGETS: LimitsRow[] = [
  budget(IE_GERMANY, { budget: 20, remaining: 20 }),
  budget(EP_GERMANY, { budget: 100, remaining: 3 }),
  EP_FRANCE,
  budget(CP_POLYMERS, { budget: 100, remaining: 60 }),
];

test.each<[string, LimitsRow[], ProductId | null, LimitsUnavailable[], CellTable]>([
  [
    "budgets: two more columns; a dataset without one leaves them empty",
    WITH_BUDGETS,
    null,
    [],
    [
      ["Product", "Dataset", "Remaining", "Total", "Your budget", "Your remaining"],
      ["Energy Price", "France", 500, 500, "", ""],
      ["Energy Price", "Germany", 480, 500, 100, 3],
      ["Commodity Price", "Polymers", 12, 300, 100, 60],
      ["Industry Economics", "Germany", 40, 50, 20, 20],
    ],
  ],
  [
    "narrowed to a product none of whose datasets has a budget: four columns",
    [...WITH_BUDGETS.filter((row) => row.product !== "commodity_price"), CP_POLYMERS],
    "commodity_price",
    [],
    [
      ["Product", "Dataset", "Remaining", "Total"],
      ["Commodity Price", "Polymers", 12, 300],
    ],
  ],
  [
    "budgets with an unread product: its note row has the two columns empty",
    WITH_BUDGETS.filter((row) => row.product === "energy_price"),
    null,
    [unread("commodity_price")],
    [
      ["Product", "Dataset", "Remaining", "Total", "Your budget", "Your remaining"],
      ["Energy Price", "France", 500, 500, "", ""],
      ["Energy Price", "Germany", 480, 500, 100, 3],
      ["Commodity Price", NOTE, "", "", "", ""],
    ],
  ],
  [
    "narrowed to a product with budgets: six columns",
    WITH_BUDGETS,
    "energy_price",
    [],
    [
      ["Product", "Dataset", "Remaining", "Total", "Your budget", "Your remaining"],
      ["Energy Price", "France", 500, 500, "", ""],
      ["Energy Price", "Germany", 480, 500, 100, 3],
    ],
  ],
  [
    "no budgets at all: the four columns",
    ROWS,
    null,
    [],
    [
      ["Product", "Dataset", "Remaining", "Total"],
      ["Energy Price", "France", 500, 500],
      ["Energy Price", "Germany", 480, 500],
      ["Commodity Price", "Polymers", 12, 300],
      ["Industry Economics", "Germany", 40, 50],
    ],
  ],
])("member budgets: %s", (_case, rows, product, unavailable, expected) => {
  expect(buildLimitsTable(rows, product, unavailable)).toEqual(expected);
});

test.each<[string, string, ProductId | null, number]>([
  ["the member has less left than the team: the member's", "Germany", "energy_price", 3],
  ["the team has less left than the member: the team's", "Polymers", null, 12],
  ["as much left for both", "Germany", "industry_economics", 20],
  ["no budget for the dataset: the team's", "France", null, 500],
])("one dataset with member budgets: %s", (_case, dataset, product, remaining) => {
  expect(datasetRemaining(WITH_BUDGETS, dataset, product)).toBe(remaining);
});

test("search table: header, best first, cut to max rows, empty text for missing defaults", () => {
  const hits: SearchHit[] = [
    { info: makeInfo({ code: "1-1-1", assessment: "A", coverage: "France" }), score: 1 },
    {
      info: makeInfo({
        code: "2-2-2",
        assessment: "B",
        coverage: "Spain",
        defaultCurrency: null,
        defaultUnit: null,
      }),
      score: 3,
    },
    { info: makeInfo({ code: "3-3-3", assessment: "C" }), score: 2 },
  ];
  expect(buildSearchTable(hits, 2)).toEqual([
    ["Code", "Assessment", "Coverage", "Default currency", "Default unit"],
    ["2-2-2", "B", "Spain", "", ""],
    ["3-3-3", "C", "Germany", "EUR", "MWh"],
  ]);
});
