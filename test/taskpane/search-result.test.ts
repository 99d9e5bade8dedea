// When the series picker says "Loading…": only when it has nothing current to show, never
// while the same search reloads under a changed catalog.
import type { SearchHit } from "../../src/core/engine-api";
import type { Loaded } from "../../src/taskpane/hooks/use-load";
import { listLoading, type SearchResult } from "../../src/taskpane/search-result";
import { NO_FILTERS, type SeriesFilters } from "../../src/taskpane/series-filters";

const GERMANY: SeriesFilters = { ...NO_FILTERS, coverage: "Germany" };
const hits: SearchHit[] = [];
const gas: SearchResult = { query: "gas", filters: NO_FILTERS, hits };
const catalogReady: Loaded<unknown> = { status: "ready", value: [] };
const catalogReloading: Loaded<unknown> = { status: "loading", value: [] };
const catalogFirst: Loaded<unknown> = { status: "loading", value: undefined };
const catalogFailed: Loaded<unknown> = { status: "failed", value: undefined, message: "no answer" };
const noSearch: Loaded<SearchResult | null> = { status: "ready", value: null };

test.each<[string, Loaded<unknown>, Loaded<SearchResult | null>, string, SeriesFilters, boolean]>([
  ["the catalog's first load", catalogFirst, noSearch, "", NO_FILTERS, true],
  ["the catalog reloading with its last value shown", catalogReloading, noSearch, "", NO_FILTERS, false],
  ["a failed catalog (its message shows)", catalogFailed, noSearch, "", NO_FILTERS, false],
  ["a search's first answer", catalogReady, { status: "loading", value: null }, "gas", NO_FILTERS, true],
  ["the same search reloading", catalogReady, { status: "loading", value: gas }, "gas", NO_FILTERS, false],
  ["a new search text", catalogReady, { status: "loading", value: gas }, "gasoline", NO_FILTERS, true],
  ["the same text under a new filter", catalogReady, { status: "loading", value: gas }, "gas", GERMANY, true],
  [
    "the same text and filters as a new object",
    catalogReady,
    { status: "loading", value: { ...gas, filters: { ...NO_FILTERS } } },
    "gas",
    { ...NO_FILTERS },
    false,
  ],
  ["a search answered", catalogReady, { status: "ready", value: gas }, "gas", NO_FILTERS, false],
  [
    "a failed search (its message shows)",
    catalogReady,
    { status: "failed", value: gas, message: "x" },
    "gas",
    GERMANY,
    false,
  ],
  [
    "an empty search text while a search reloads",
    catalogReady,
    { status: "loading", value: gas },
    "",
    NO_FILTERS,
    false,
  ],
])("%s", (_case, catalog, search, query, filters, loading) => {
  expect(listLoading(catalog, search, query, filters)).toBe(loading);
});
