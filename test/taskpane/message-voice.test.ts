// Walks every message the pane's messages.ts can produce (each function over the inputs
// that change its wording) through the checkable rules of docs/messages.md.
import { PcdError } from "../../src/core/errors";
import { PRODUCTS, type ProductId } from "../../src/core/model";
import {
  describeError,
  emptyListText,
  listSummaryText,
  signInErrorMessage,
  tokenLifetimeText,
  nextMaintenanceText,
  nextReleaseText,
  unavailableText,
  type ProductCounts,
} from "../../src/taskpane/messages";
import { PRODUCT_LABELS } from "../../src/taskpane/series-filters";
import { voiceProblems } from "../support/message-voice";

const NOW = Date.UTC(2026, 10, 25, 15, 0);
const SERVICE = "https://pcd.example.com";

const ERRORS: Array<[string, unknown]> = [
  ["auth", new PcdError("auth", "401 Unauthorized", { serverMessage: "Invalid credentials" })],
  ["network with a reason", new PcdError("network", "x", { reason: "connection refused" })],
  ["network without a reason", new PcdError("network", "x")],
  ["timeout", new PcdError("timeout", "no answer within 130 s")],
  ["maintenance with an end", new PcdError("unavailable", "503", { until: NOW + 7 * 3_600_000 })],
  ["maintenance without an end", new PcdError("unavailable", "503", { serverMessage: "Down" })],
  ["input", new PcdError("input", "invalid setting baseUrl: must use https")],
  ["server", new PcdError("server", "500 Internal")],
  ["empty PcdError", new PcdError("storage", " ")],
  ["TypeError", new TypeError("Failed to fetch")],
  ["empty Error", new Error("")],
  ["a string", "something odd"],
];

function counts(energy: number, commodities: number, industry: number): ProductCounts {
  return { energy_price: energy, commodity_price: commodities, industry_economics: industry };
}

const products: Array<ProductId | null> = [null, ...PRODUCTS];
const corpus: Array<[string, string]> = [
  ...ERRORS.map(([name, error]): [string, string] => [
    `sign-in: ${name}`,
    signInErrorMessage(error, SERVICE, NOW),
  ]),
  ...ERRORS.map(([name, error]): [string, string] => [`describeError: ${name}`, describeError(error)]),
  ...(["maintenance", "release", null] as const).flatMap((reason): Array<[string, string]> => [
    [`unavailable ${reason} with end`, unavailableText(NOW + 3_600_000, NOW, reason)],
    [`unavailable ${reason} without end`, unavailableText(null, NOW, reason)],
  ]),
  ["next release day", nextReleaseText(NOW + 86_400_000)],
  ["next maintenance window", nextMaintenanceText(NOW + 86_400_000)],
  ["token none", tokenLifetimeText(null, NOW)],
  ["token expired", tokenLifetimeText(NOW - 1, NOW)],
  ["token fresh", tokenLifetimeText(NOW + 7_200_000, NOW)],
  ...products.flatMap((product) =>
    ["", "xyz"].flatMap((query) =>
      [false, true].flatMap((filtered) =>
        [counts(0, 0, 0), counts(0, 22, 0), counts(3, 22, 1)].map((found): [string, string] => [
          `empty list ${product ?? "all"} "${query}" filtered=${filtered} ${Object.values(found).join("/")}`,
          emptyListText({ query, product, counts: found, filtered, labels: PRODUCT_LABELS }),
        ]),
      ),
    ),
  ),
  ["summary one product", listSummaryText(22, "ethylene", counts(0, 22, 0), PRODUCT_LABELS)],
  ["summary several", listSummaryText(26, "gas", counts(3, 22, 1), PRODUCT_LABELS)],
  ["summary browse", listSummaryText(1200, "", counts(1200, 0, 0), PRODUCT_LABELS)],
];

test("the corpus covers every message function", () => {
  expect(corpus.length).toBeGreaterThan(80);
});

test.each(corpus)("%s", (_name, message) => {
  expect(voiceProblems(message)).toEqual([]);
});

test.each([
  [
    "Energy",
    counts(0, 22, 0),
    'No series match "xyz" in Energy; 22 in Commodities. Choose Commodities, or All, to see them.',
  ],
  [
    "Energy",
    counts(0, 0, 0),
    'No series match "xyz" in Energy. Try fewer or other words, or search by code, e.g. "68520-8-1".',
  ],
])("an empty search in %s says what to try", (_label, found, expected) => {
  expect(
    emptyListText({
      query: "xyz",
      product: "energy_price",
      counts: found,
      filtered: false,
      labels: PRODUCT_LABELS,
    }),
  ).toBe(expected);
});

test("status times carry their time zone", () => {
  expect(unavailableText(NOW + 3_600_000, NOW)).toMatch(/\b(UTC|GMT[+-]?\d*|[A-Z]{2,5})\b \(1 h from now\)/);
});
