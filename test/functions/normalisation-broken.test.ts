// The normalisation tests' cells with the reference lookup made case-sensitive (a broken
// normalisation): a lower-case currency is then refused, so the cells of
// normalisation.test.ts would notice such a break.
import { normalisationBench } from "./support/normalised-cell";

jest.mock("../../src/core/reference", () => {
  const actual: typeof import("../../src/core/reference") = jest.requireActual("../../src/core/reference");
  return {
    ...actual,
    findReference: (...[table, input]: Parameters<typeof actual.findReference>) =>
      typeof input === "string"
        ? table.find((entry) => entry.shortName === input)
        : actual.findReference(table, input),
  };
});

const bench = normalisationBench();

test("a case-sensitive reference lookup refuses a lower-case currency", async () => {
  expect(await bench.cell("68520-8-1", "usd", null)).toEqual({
    type: "#VALUE!",
    message: expect.stringMatching(/^Currency 'usd'/),
  });
});

test("the canonical spelling still reads", async () => {
  expect(await bench.cell("68520-8-1", "USD", null)).toEqual(expect.any(Number));
});
