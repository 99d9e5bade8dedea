import type { CatalogSeries, Product } from "../../bench/catalog";
import type { Reads } from "../../bench/needs";
import {
  dealCatalog,
  generateTeamWorkbooks,
  memberEmail,
  teamBound,
  teamKeys,
  type MemberWorkbook,
} from "../../bench/team-workbooks";
import type { BenchFormula } from "../../bench/workloads";
import { codes, series } from "./fixtures";

// Last final 2026-10: the 13-month window starts 2025-10; earlier months are History's.
const LATEST: Reads = { from: "latest", to: null };
const OLD: Reads = { from: "2010-01", to: "2010-12" };
const WHOLE: Reads = { from: null, to: null };

function cell(
  code: string,
  reads: Reads,
  product: Product = "energy_price",
  currency: string | null = null,
): BenchFormula {
  return { text: `=PCD.VALUES("${code}")`, kind: "VALUES", code, product, currency, unit: null, reads };
}

function info(code: string, product: Product): BenchFormula {
  return { text: `=PCD.INFO("${code}")`, kind: "INFO", code, product, currency: null, unit: null };
}

function member(index: number, formulas: BenchFormula[]): MemberWorkbook {
  return { email: memberEmail(index), formulas };
}

function catalogOf(formulas: readonly BenchFormula[]): Map<string, CatalogSeries> {
  return new Map(formulas.map((formula) => [formula.code, series(formula.code, formula.product)]));
}

describe("teamBound: the need-based bound of the union of the members' cells", () => {
  test.each<[string, BenchFormula[][], { values: number; hist: number; requests: number; catalogs: number }]>(
    [
      [
        "a key two members read alike is needed once",
        [[cell("E-1", LATEST)], [cell("E-1", LATEST)]],
        { values: 1, hist: 0, requests: 1, catalogs: 1 },
      ],
      [
        "latest values by one member and old months by another: both parts of the key",
        [[cell("E-1", LATEST)], [cell("E-1", OLD)]],
        { values: 1, hist: 1, requests: 2, catalogs: 1 },
      ],
      [
        "a currency makes a key of its own (one code twice: two calls)",
        [[cell("E-1", LATEST)], [cell("E-1", LATEST, "energy_price", "USD")]],
        { values: 2, hist: 0, requests: 2, catalogs: 1 },
      ],
      [
        "40 codes of one group across members fit one call",
        [codes("A", 20).map((code) => cell(code, WHOLE)), codes("B", 20).map((code) => cell(code, WHOLE))],
        { values: 1, hist: 1, requests: 80, catalogs: 1 },
      ],
      [
        "41 codes of one group take two calls, however the members split them",
        [codes("A", 40).map((code) => cell(code, LATEST)), [cell("B-1-1", LATEST)]],
        { values: 2, hist: 0, requests: 41, catalogs: 1 },
      ],
      [
        "two products are two groups; an INFO cell's product still needs its Series Info",
        [[cell("E-1", LATEST)], [cell("C-1", LATEST, "commodity_price"), info("I-1", "industry_economics")]],
        { values: 2, hist: 0, requests: 2, catalogs: 3 },
      ],
    ],
  )("%s", (_name, workbooks, expected) => {
    const members = workbooks.map((formulas, index) => member(index, formulas));
    const bound = teamBound(members, catalogOf(workbooks.flat()), "real");
    expect(bound.calls).toEqual({
      access_token: 1,
      series_info: expected.catalogs,
      series_values: expected.values,
      series_hist: expected.hist,
      data_limits: 0,
    });
    expect(bound.dataRequests).toBe(expected.requests);
  });

  test("the spec shape's History holds the window too: whole series cost one History request", () => {
    const members = [member(0, [cell("E-1", WHOLE)]), member(1, [cell("E-1", LATEST)])];
    const bound = teamBound(members, catalogOf(members.flatMap((entry) => entry.formulas)), "spec");
    expect(bound.calls).toMatchObject({ series_values: 0, series_hist: 1 });
    expect(bound.dataRequests).toBe(1);
  });
});

function asked(
  code: string,
  reads: Reads,
  currency: string | null,
  unit: string | null = null,
): BenchFormula {
  return { ...cell(code, reads, "energy_price", currency), unit };
}

describe("teamBound: a code asked with k option sets needs k calls in its group", () => {
  // A call never holds a code twice: a group needs max(ceil(keys / 40), most option sets of one code).
  test.each<[string, BenchFormula[][], { values: number; hist: number; requests: number }]>([
    [
      "one code in three currencies, one member each: three calls for three keys",
      [[asked("E-1", LATEST, null)], [asked("E-1", LATEST, "USD")], [asked("E-1", LATEST, "GBP")]],
      { values: 3, hist: 0, requests: 3 },
    ],
    [
      "30 codes and one of them in two more currencies: 32 keys fit one call, the repeats need three",
      [
        codes("A", 30).map((code) => asked(code, LATEST, null)),
        [asked("A-1-1", LATEST, "USD"), asked("A-1-1", LATEST, "GBP")],
      ],
      { values: 3, hist: 0, requests: 32 },
    ],
    [
      "a currency and a unit are option sets alike",
      [[asked("E-1", LATEST, null), asked("E-1", LATEST, null, "GJ")], [asked("E-1", LATEST, "USD", "GJ")]],
      { values: 3, hist: 0, requests: 3 },
    ],
    [
      "85 codes and one in a second currency: the 40-code packing needs more (3) than the repeat (2)",
      [codes("A", 85).map((code) => asked(code, LATEST, null)), [asked("A-1-1", LATEST, "USD")]],
      { values: 3, hist: 0, requests: 86 },
    ],
    [
      "the repeat counts per operation: old months in two currencies need two History calls",
      [[asked("E-1", OLD, null), asked("E-2", LATEST, null)], [asked("E-1", OLD, "USD")]],
      { values: 1, hist: 2, requests: 3 },
    ],
    [
      "the series' default currency and unit spelled out share the default's key: one call",
      [[asked("E-1", LATEST, null)], [asked("E-1", LATEST, "EUR", "MWh")]],
      { values: 1, hist: 0, requests: 1 },
    ],
    [
      "the same code and currency asked by two members is one key, one call",
      [[asked("E-1", LATEST, "USD")], [asked("E-1", LATEST, "USD")]],
      { values: 1, hist: 0, requests: 1 },
    ],
  ])("%s", (_name, workbooks, expected) => {
    const members = workbooks.map((formulas, index) => member(index, formulas));
    const bound = teamBound(members, catalogOf(workbooks.flat()), "real");
    expect(bound.calls).toMatchObject({ series_values: expected.values, series_hist: expected.hist });
    expect(bound.dataRequests).toBe(expected.requests);
  });
});

test("teamKeys counts the union, the keys every member has and the keys of one member alone", () => {
  const shared = [cell("S-1", LATEST), cell("S-2", OLD)];
  const members = [
    member(0, [...shared, cell("A-1", LATEST), cell("A-2", LATEST)]),
    member(1, [...shared, cell("B-1", LATEST)]),
    // Shared with member 0 only: neither shared by all nor anyone's own.
    member(2, [...shared, cell("A-1", OLD), info("C-1", "commodity_price")]),
  ];
  const keys = teamKeys(members, catalogOf(members.flatMap((entry) => entry.formulas)));
  expect(keys.union.map((key) => key.code).sort()).toEqual(["A-1", "A-2", "B-1", "S-1", "S-2"]);
  expect(keys.union.find((key) => key.code === "A-1")?.reads).toEqual({ from: "2010-01", to: null });
  expect(keys.sharedByAll).toBe(2);
  expect(keys.ownPerMember).toBe(2 / 3);
});

describe("generateTeamWorkbooks", () => {
  const catalog = (["energy_price", "commodity_price", "industry_economics"] as const).flatMap((product) =>
    codes(product.slice(0, 3).toUpperCase(), 60).map((code) => series(code, product)),
  );
  const byCode = new Map(catalog.map((entry) => [entry.code, entry]));

  test("dealCatalog deals every series once into slices of every product", () => {
    const slices = dealCatalog(catalog, 4, 7);
    expect(slices).toHaveLength(4);
    const dealt = slices.flat().map((entry) => entry.code);
    expect(new Set(dealt).size).toBe(catalog.length);
    expect(dealt).toHaveLength(catalog.length);
    for (const slice of slices) expect(new Set(slice.map((entry) => entry.product)).size).toBe(3);
  });

  test("every member holds the shared cells and own cells whose series no other member has", () => {
    const team = generateTeamWorkbooks(catalog, 3, 40, 7);
    expect(team.members.map((entry) => entry.email)).toEqual([
      "member01@example.com",
      "member02@example.com",
      "member03@example.com",
    ]);
    expect(team.shared).toHaveLength(20);
    const sharedTexts = new Set(team.shared.map((formula) => formula.text));
    const ownCodes = team.members.map(
      (entry) =>
        new Set(
          entry.formulas.filter((formula) => !sharedTexts.has(formula.text)).map((formula) => formula.code),
        ),
    );
    for (const [index, entry] of team.members.entries()) {
      expect(entry.formulas).toHaveLength(40);
      for (const formula of team.shared) expect(entry.formulas).toContain(formula);
      for (const [other, codesOfOther] of ownCodes.entries()) {
        if (other === index) continue;
        for (const code of ownCodes[index] ?? []) expect(codesOfOther.has(code)).toBe(false);
      }
    }
    const keys = teamKeys(team.members, byCode);
    expect(keys.sharedByAll).toBeGreaterThan(0);
    expect(keys.ownPerMember).toBeGreaterThan(0);
    expect(keys.union.length).toBeCloseTo(keys.sharedByAll + 3 * keys.ownPerMember, 9);
  });

  test("the same seed gives the same team", () => {
    expect(generateTeamWorkbooks(catalog, 2, 10, 3)).toEqual(generateTeamWorkbooks(catalog, 2, 10, 3));
  });

  test.each([
    [0, 10, "A team needs at least one member, got 0"],
    [2, 1, "at least 2 formulas (shared and own), got 1"],
  ])("%i members of %i formulas each is refused", (members, formulas, message) => {
    expect(() => generateTeamWorkbooks(catalog, members, formulas, 7)).toThrow(message);
  });
});
