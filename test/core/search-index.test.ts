import MiniSearch from "minisearch";
import { MAX_FUZZY_TERM_LENGTH, SearchIndex, fuzzyDistance } from "../../src/core/search-index";
import { MAX_SEARCH_TEXT_LENGTH } from "../../src/core/search-text-limit";
import { seriesInfo } from "./support/series-fixtures";

const catalog = [
  seriesInfo({
    code: "68520-8-1",
    assessment: "Natural gas, industrial tariff",
    commodity: "Natural gas",
    coverage: "Germany",
  }),
  seriesInfo({
    code: "68520-8-2",
    assessment: "Natural gas, household tariff",
    commodity: "Natural gas",
    coverage: "France",
    hasForecast: false,
  }),
  seriesInfo({
    code: "43125-8-1",
    assessment: "Electricity, industrial",
    commodity: "Electricity",
    coverage: "Germany",
  }),
  seriesInfo({
    code: "91201-1-5",
    product: "commodity_price",
    assessment: "Polyethylene HDPE film grade",
    commodity: "Polyethylene",
    coverage: "Polymers",
    location: "Northwest Europe",
  }),
  seriesInfo({ code: "2259-6-2", assessment: "Steam from gas 68520", commodity: "Steam", coverage: "Spain" }),
];

describe("SearchIndex", () => {
  const index = new SearchIndex(catalog);

  test.each([
    ["a word", "electricity", ["43125-8-1"]],
    ["a prefix", "polyeth", ["91201-1-5"]],
    ["a typo", "polyethylen", ["91201-1-5"]],
    ["a location", "northwest", ["91201-1-5"]],
    ["two words (all must match)", "gas household", ["68520-8-2"]],
  ])("finds by %s", (_case, text, codes) => {
    expect(index.search(text).map((hit) => hit.info.code)).toEqual(codes);
  });

  test("an exact code match ranks first", () => {
    const hits = index.search("68520-8-2");
    expect(hits[0]?.info.code).toBe("68520-8-2");
  });

  test("ranks by relevance (scores descend)", () => {
    const scores = index.search("gas").map((hit) => hit.score);
    expect(scores.length).toBeGreaterThan(1);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  test.each([
    ["product", { product: "commodity_price" as const }, "", ["91201-1-5"]],
    ["coverage (any case)", { coverage: "germany" }, "", ["43125-8-1", "68520-8-1"]],
    ["commodity", { commodity: "Natural gas" }, "tariff", ["68520-8-1", "68520-8-2"]],
    ["has forecast", { hasForecast: false }, "gas", ["68520-8-2"]],
    ["limit", { limit: 1 }, "", ["2259-6-2"]],
  ])("filters by %s", (_case, options, text, codes) => {
    expect(
      index
        .search(text, options)
        .map((hit) => hit.info.code)
        .sort(),
    ).toEqual(codes);
  });

  test("no match gives an empty list", () => {
    expect(index.search("zzzzqqq")).toEqual([]);
  });

  test("indexes a catalog of thousands of series", () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      seriesInfo({
        code: `${10000 + i}-1-1`,
        assessment: `Series number ${i}`,
        commodity: i % 2 ? "Steel" : "Copper",
      }),
    );
    const big = new SearchIndex(many);
    expect(big.size).toBe(3000);
    expect(big.search("10042-1-1")[0]?.info.code).toBe("10042-1-1");
    expect(big.search("copper", { limit: 5 })).toHaveLength(5);
  });
});

describe("search limits", () => {
  const index = new SearchIndex(catalog);

  test("text up to MAX_SEARCH_TEXT_LENGTH is searched; longer text is an input error saying the cap", () => {
    expect(() => index.search(`natural gas ${"x".repeat(MAX_SEARCH_TEXT_LENGTH - 12)}`)).not.toThrow();
    expect(() => index.search("x".repeat(MAX_SEARCH_TEXT_LENGTH + 1))).toThrow(
      expect.objectContaining({
        kind: "input",
        message:
          "Search text is 201 characters long: search with at most 200 characters (a few words or a code).",
      }),
    );
  });

  test("a 100,000-character word is refused before any matching, with little memory", () => {
    const word = "polyethylene".repeat(8_334).slice(0, 100_000);
    const before = process.memoryUsage();
    let error: unknown;
    try {
      index.search(word);
    } catch (caught) {
      error = caught;
    }
    const after = process.memoryUsage();
    expect(error).toMatchObject({
      kind: "input",
      message: expect.stringMatching(/^Search text is 100,000 characters long/),
    });
    // Fuzzy matching of such a word once took 1.8 GB; refusing it takes next to nothing.
    const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    expect(grown).toBeLessThan(32 * 1024 * 1024);
  });

  test("fuzzy matching is bounded: typos in words of 4 to 24 letters, longer words by prefix only", () => {
    expect(fuzzyDistance("gas")).toBe(false);
    expect(fuzzyDistance("12345")).toBe(false);
    expect(fuzzyDistance("polyethylen")).toBe(0.2);
    expect(fuzzyDistance("x".repeat(MAX_FUZZY_TERM_LENGTH))).toBe(0.2);
    expect(fuzzyDistance("x".repeat(MAX_FUZZY_TERM_LENGTH + 1))).toBe(false);
    // A typo is still forgiven; a word at the cap is searched and finds nothing.
    expect(index.search("polyethylen").map((hit) => hit.info.code)).toContain("91201-1-5");
    expect(index.search("q".repeat(MAX_SEARCH_TEXT_LENGTH))).toEqual([]);
  });
});

describe("countries by ISO code and common name", () => {
  const place = (code: string, assessment: string, location: string): ReturnType<typeof seriesInfo> =>
    seriesInfo({ code, assessment, commodity: "Natural gas", location, coverage: location });
  const index = new SearchIndex([
    place("68520-8-1", "Natural gas, industrial tariff", "Germany"),
    place("70001-1-1", "LNG DES Northwest Europe", "Northwest Europe"),
    place("68520-8-5", "Natural gas, industrial tariff", "United Kingdom"),
    place("68520-8-7", "Natural gas, industrial tariff", "United States"),
    seriesInfo({
      code: "43125-8-9",
      assessment: "Electricity, industrial",
      commodity: "Electricity",
      location: "Netherlands",
      coverage: "Netherlands",
    }),
  ]);

  test.each<[string, string, string]>([
    ["an ISO alpha-2 code", "gas de", "68520-8-1"],
    ["an ISO alpha-3 code", "deu gas", "68520-8-1"],
    ["uk", "gas uk", "68520-8-5"],
    ["usa", "usa gas", "68520-8-7"],
    ["us", "us gas", "68520-8-7"],
    ["a two-word name", "great britain gas", "68520-8-5"],
    ["a common name", "holland", "43125-8-9"],
  ])("%s finds the country's series first (%s)", (_case, text, first) => {
    expect(index.search(text)[0]?.info.code).toBe(first);
  });

  test('a code still matches what the word itself starts: "gas de" also finds DES', () => {
    const codes = index.search("gas de").map((hit) => hit.info.code);
    expect(codes).toEqual(["68520-8-1", "70001-1-1"]);
  });
});

describe("a search asked again", () => {
  const codesOf = (hits: Array<{ info: { code: string } }>) => hits.map((hit) => hit.info.code);

  test("is answered from the recent answers: the same hits, no second search of the index", () => {
    const index = new SearchIndex(catalog);
    const searches = jest.spyOn(MiniSearch.prototype, "search");
    try {
      const first = index.search("natural gas");
      const again = index.search("natural gas");
      expect(again).toEqual(first);
      expect(searches).toHaveBeenCalledTimes(1);
    } finally {
      searches.mockRestore();
    }
  });

  test.each([
    ["another text", "gas", {}],
    ["another product", "natural gas", { product: "commodity_price" as const }],
    ["another limit", "natural gas", { limit: 1 }],
    ["another coverage", "natural gas", { coverage: "France" }],
    ["another commodity", "natural gas", { commodity: "Electricity" }],
    ["forecasts only", "natural gas", { hasForecast: true }],
  ])("with %s is searched for itself", (_name, text, options) => {
    const index = new SearchIndex(catalog);
    const fresh = new SearchIndex(catalog).search(text, options);
    index.search("natural gas");
    expect(codesOf(index.search(text, options))).toEqual(codesOf(fresh));
  });

  test("a caller changing its hits does not change the next answer", () => {
    const index = new SearchIndex(catalog);
    const first = index.search("electricity");
    first.splice(0, first.length);
    expect(codesOf(index.search("electricity"))).toEqual(["43125-8-1"]);
  });

  test("an answer pushed out by many other searches is searched again, and still right", () => {
    const index = new SearchIndex(catalog);
    const first = codesOf(index.search("electricity"));
    for (let i = 0; i < 40; i += 1) index.search(`gas ${i}`);
    const searches = jest.spyOn(MiniSearch.prototype, "search");
    try {
      expect(codesOf(index.search("electricity"))).toEqual(first);
      expect(searches).toHaveBeenCalled();
    } finally {
      searches.mockRestore();
    }
  });
});
