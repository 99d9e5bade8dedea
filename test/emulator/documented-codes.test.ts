import { generateCatalog } from "../../src/emulator/catalog";

// The example codes of docs/service.md §1 exist in the emulator, on series that fit the examples
// the documentation uses them in, so a user trying the README against `npm start` sees data.
describe("documented example codes", () => {
  const catalog = generateCatalog(1);

  test.each([
    [
      "68520-8-1",
      "energy_price",
      (d: { availableCurrencies: readonly string[]; availableUnits: readonly string[] }) =>
        d.availableCurrencies.includes("EUR") && d.availableUnits.includes("MWh"),
    ],
    ["43125-8-1", "energy_price", () => true],
    ["91201-1-5", "commodity_price", () => true],
    ["69138-1-13", "commodity_price", () => true],
    ["2259-6-2", "industry_economics", (d: { dataType: string }) => d.dataType === "utility"],
    ["912-5-2", "industry_economics", (d: { dataType: string }) => d.dataType === "cost_index"],
  ] as const)("%s is a live %s series that fits its examples", (code, product, fits) => {
    const definition = catalog.get(code);
    expect(definition).toBeDefined();
    expect(definition?.product).toBe(product);
    expect(definition?.discontinuedMonth).toBeUndefined();
    expect(fits(definition as never)).toBe(true);
  });

  test("codes stay unique", () => {
    const codes = catalog.series.map((definition) => definition.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
