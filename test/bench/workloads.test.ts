import type { CatalogSeries } from "../../bench/catalog";
import { distinctRequestKeys } from "../../bench/request-keys";
import { formulaText, generateWorkbook, monthsBefore } from "../../bench/workloads";
import { coldBound } from "../../bench/bounds";
import { generateNeedWorkbook } from "../../bench/need-workloads";
import { codes, series } from "./fixtures";

/** 100 series per product; a third of the industry ones are cost indexes without options. */
function syntheticCatalog(): CatalogSeries[] {
  const catalog: CatalogSeries[] = [];
  for (let index = 1; index <= 100; index += 1) {
    catalog.push(series(`1${index}-1-1`, "energy_price"));
    catalog.push(
      series(`2${index}-1-1`, "commodity_price", {
        defaultCurrency: "USD",
        defaultUnit: "mt",
        availableUnits: ["mt", "kg"],
      }),
    );
    catalog.push(
      index % 3 === 0
        ? series(`3${index}-1-1`, "industry_economics", {
            dataType: "cost_index",
            defaultCurrency: null,
            defaultUnit: null,
            availableCurrencies: [],
            availableUnits: [],
          })
        : series(`3${index}-1-1`, "industry_economics"),
    );
  }
  return catalog;
}

const catalog = syntheticCatalog();
const byCode = new Map(catalog.map((entry) => [entry.code, entry]));

describe("formulaText", () => {
  test.each([
    ["VALUES", ['"1-1-1"'], '=PCD.VALUES("1-1-1")'],
    ["VALUES", ['"1-1-1"', null, '"MWh"', null], '=PCD.VALUES("1-1-1",,"MWh")'],
    ["VALUE", ['"1-1-1"', "DATE(2026,3,1)", '"EUR"'], '=PCD.VALUE("1-1-1",DATE(2026,3,1),"EUR")'],
    ["INFO", ['"1-1-1"', null], '=PCD.INFO("1-1-1")'],
  ] as const)("%s %j", (name, args, expected) => {
    expect(formulaText(name, args)).toBe(expected);
  });
});

describe("monthsBefore", () => {
  test.each([
    ["2026-10-01", 0, [2026, 10]],
    ["2026-10-01", 10, [2025, 12]],
    ["2026-01-01", 1, [2025, 12]],
    ["2026-01-01", 25, [2023, 12]],
  ] as const)("%s minus %d", (date, back, expected) => {
    expect(monthsBefore(date, back)).toEqual(expected);
  });
});

describe("generateWorkbook", () => {
  const workbook = generateWorkbook(catalog, 2000, 7);
  const { composition } = workbook;
  const dataCells = composition.byKind.VALUES + composition.byKind.VALUE;

  test("is the same for the same seed and differs for another", () => {
    expect(generateWorkbook(catalog, 2000, 7).formulas).toEqual(workbook.formulas);
    expect(generateWorkbook(catalog, 2000, 8).formulas).not.toEqual(workbook.formulas);
  });

  test("holds exactly the requested number of formulas, counted by kind and product", () => {
    expect(workbook.formulas).toHaveLength(2000);
    expect(Object.values(composition.byKind).reduce((sum, count) => sum + count, 0)).toBe(2000);
    expect(Object.values(composition.byProduct).reduce((sum, count) => sum + count, 0)).toBe(2000);
  });

  test("mixes the three functions and the three products", () => {
    for (const count of [...Object.values(composition.byKind), ...Object.values(composition.byProduct)]) {
      expect(count).toBeGreaterThan(200);
    }
  });

  test("a fifth of the cells repeat another cell's request", () => {
    expect(composition.duplicates).toBe(400);
  });

  test("about a quarter of the data cells ask for options and some spell the default out", () => {
    expect(composition.withOptions / dataCells).toBeGreaterThan(0.2);
    expect(composition.withOptions / dataCells).toBeLessThan(0.3);
    expect(composition.spelledDefault).toBeGreaterThan(50);
  });

  test("every formula names a catalog code in the runner's grammar, options valid for the series", () => {
    for (const formula of workbook.formulas) {
      expect(formula.text).toMatch(
        /^=PCD\.(VALUES|VALUE|INFO)\("\d+-\d+-\d+"[^()]*(DATE\(\d+,\d+,1\)[^()]*)?\)$/,
      );
      const entry = byCode.get(formula.code);
      expect(entry).toBeDefined();
      if (formula.currency !== null) {
        expect(entry!.availableCurrencies.map((name) => name.toLowerCase())).toContain(
          formula.currency.toLowerCase(),
        );
      }
      if (formula.unit !== null) {
        expect(entry!.availableUnits.map((name) => name.toLowerCase())).toContain(formula.unit.toLowerCase());
      }
    }
  });

  test("repeats and spelled defaults shrink the distinct request keys below the data cells", () => {
    const keys = distinctRequestKeys(workbook.formulas, byCode);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.length).toBeLessThan(dataCells);
  });

  test.each([[0], [-1], [1.5]])("rejects the size %p", (size) => {
    expect(() => generateWorkbook(catalog, size, 1)).toThrow(`got ${size}`);
  });

  test("a one-formula workbook works", () => {
    expect(generateWorkbook(catalog, 1, 1).formulas).toHaveLength(1);
  });
});

describe("what each generated cell reads", () => {
  const catalog = [
    ...codes("1", 30).map((code) => series(code, "energy_price")),
    ...codes("2", 30).map((code) => series(code, "commodity_price")),
  ];

  test("matches its formula text: a dated VALUE one month, a VALUE without date the latest, a VALUES table from its start", () => {
    const { formulas } = generateWorkbook(catalog, 300, 5);
    for (const formula of formulas) {
      if (formula.kind === "INFO") continue;
      const dated = /DATE\((\d{4}),(\d{1,2}),1\)/.exec(formula.text);
      const start = /,"(\d{4}-\d{2})"\)$/.exec(formula.text);
      if (formula.kind === "VALUE" && dated) {
        const month = `${dated[1]}-${dated[2]!.padStart(2, "0")}`;
        expect(formula.reads).toEqual({ from: month, to: month });
      } else if (formula.kind === "VALUE") {
        expect(formula.reads).toEqual({ from: "latest", to: null });
      } else {
        expect(formula.reads).toEqual({ from: start ? start[1] : null, to: null });
      }
    }
  });

  test.each([
    ["dashboard", 1],
    ["recent", 1],
    ["history", 2],
  ] as const)("a %s need workbook's keys need %d request(s) each on the real shape", (kind, perKey) => {
    const workbook = generateNeedWorkbook(catalog, kind, 12, 3);
    const byCode = new Map(catalog.map((entry) => [entry.code, entry]));
    const keys = distinctRequestKeys(workbook.formulas, byCode);
    expect(keys).toHaveLength(12);
    expect(coldBound(keys, { signIns: 0, catalogs: 0 }).dataRequests).toBe(12 * perKey);
  });
});
