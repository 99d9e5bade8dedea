import { formulaKeys, seriesArguments } from "../../src/headless/formula-keys";

test.each<[string, Array<{ code: string; currency: string | number | null; unit: string | number | null }>]>([
  ['=PCD.VALUES("1-1-1","EUR","MWh","2024-01")', [{ code: "1-1-1", currency: "EUR", unit: "MWh" }]],
  ['=PCD.VALUE("1-1-1",DATE(2025,1,1),"USD")', [{ code: "1-1-1", currency: "USD", unit: null }]],
  ['=PCD.ESCALATE(100,"2-2-2","2019-01",,3,7)', [{ code: "2-2-2", currency: 3, unit: 7 }]],
  ['=PCD.CHANGE("2-2-2","2019-01")', [{ code: "2-2-2", currency: null, unit: null }]],
  ['=PCD.AVERAGE("2-2-2","2025-01","2025-12","GBP")', [{ code: "2-2-2", currency: "GBP", unit: null }]],
  [
    '=PCD.RELOCATE(100,"3-3-3","4-4-4")',
    [
      { code: "3-3-3", currency: null, unit: null },
      { code: "4-4-4", currency: null, unit: null },
    ],
  ],
  ['=PCD.SERIES("5-5-5",,"kWh")', [{ code: "5-5-5", currency: null, unit: "kWh" }]],
  ['=PCD.INFO("1-1-1")', []],
  ["=PCD.LIMITS()", []],
  ['=PCD.SEARCH("gas")', []],
  ["=PCD.VALUE(", []],
  ["=PCD.VALUE(,2025)", []],
])("%s", (formula, expected) => {
  expect(seriesArguments(formula)).toEqual(expected);
});

test("the keys of the formulas that resolve, each once", async () => {
  const resolve = jest.fn(async (code: string, currency: string | number | null) => {
    if (code === "9-9-9") throw new Error("not in the catalog");
    return { key: `${code}|${currency ?? "default"}` };
  });
  const keys = await formulaKeys({ resolve } as unknown as Parameters<typeof formulaKeys>[0], [
    '=PCD.VALUE("1-1-1")',
    '=PCD.VALUES("1-1-1")',
    '=PCD.VALUE("1-1-1",,"USD")',
    '=PCD.VALUE("9-9-9")',
  ]);
  expect(keys).toEqual(["1-1-1|default", "1-1-1|USD"]);
  expect(resolve).toHaveBeenCalledTimes(3);
});
