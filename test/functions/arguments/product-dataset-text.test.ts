import { parseDataset, sameDatasetName } from "../../../src/functions/arguments/dataset";
import { parseProduct } from "../../../src/functions/arguments/product";
import { parseSearchText } from "../../../src/functions/arguments/search-text";

test.each([
  [null, null],
  ["", null],
  ["energy", "energy_price"],
  ["Energy Price", "energy_price"],
  ["energy_price", "energy_price"],
  ["ENERGY-PRICE", "energy_price"],
  ["commodity", "commodity_price"],
  ["Commodity Price", "commodity_price"],
  ["primary commodity product", "commodity_price"],
  ["industry", "industry_economics"],
  ["Industry Economics", "industry_economics"],
])("product %j is %j", (input, product) => {
  expect(parseProduct(input)).toBe(product);
});

test.each([["oil"], [1], [true]])("product %j is rejected listing the products", (input) => {
  expect(() => parseProduct(input)).toThrow(
    expect.objectContaining({
      kind: "input",
      message: expect.stringMatching(
        /^The product ("oil" is not a PCD product|arrived as 1|arrived as TRUE): use "energy", "commodity" or "industry"\.$/,
      ),
      details: { argument: "product", allowed: ["energy", "commodity", "industry"] },
    }),
  );
});

test.each([
  [null, null],
  [" ", null],
  [" Germany ", "Germany"],
  ["Northwest Europe", "Northwest Europe"],
])("dataset %j is %j", (input, dataset) => {
  expect(parseDataset(input)).toBe(dataset);
});

test("a numeric dataset is rejected", () => {
  expect(() => parseDataset(42)).toThrow(/dataset arrived as 42: give a dataset name as text/);
});

test.each([
  ["germany", "Germany", true],
  ["northwest  europe", "Northwest Europe", true],
  ["Germany", "Germany East", false],
])("dataset names %j and %j match: %j", (a, b, same) => {
  expect(sameDatasetName(a, b)).toBe(same);
});

test.each([
  [" natural gas ", "natural gas"],
  [2259, "2259"],
])("search text %j is %j", (input, text) => {
  expect(parseSearchText(input)).toBe(text);
});

test.each([[null], [""], ["   "]])("empty search text %j is rejected", (input) => {
  expect(() => parseSearchText(input)).toThrow(
    expect.objectContaining({
      kind: "input",
      message: 'The search text is empty: give words to search for, e.g. "natural gas germany".',
    }),
  );
});

test("a non-text product says what arrived", () => {
  expect(() => parseProduct([["a"]])).toThrow(
    expect.objectContaining({
      message: 'The product arrived as a range: use "energy", "commodity" or "industry".',
    }),
  );
});
