// What the series picker's search found, with the search it answers: a reload of the same
// search (the catalog changed under it) keeps the shown list and its counts in place instead
// of going back to "Loading…", while a new search text or filter shows that it is loading.
import type { SearchHit } from "../core/engine-api";
import type { Loaded } from "./hooks/use-load";
import type { SeriesFilters } from "./series-filters";

export interface SearchResult {
  query: string;
  filters: SeriesFilters;
  hits: readonly SearchHit[];
}

/** True when the shown result answers this search text with these filters. */
function answers(result: SearchResult | null | undefined, query: string, filters: SeriesFilters): boolean {
  return (
    result !== null &&
    result !== undefined &&
    result.query === query &&
    result.filters.coverage === filters.coverage &&
    result.filters.commodity === filters.commodity &&
    result.filters.hasForecast === filters.hasForecast
  );
}

/**
 * Whether the list has nothing current to show yet: the catalog has never loaded, or a
 * search is under way whose text or filters differ from the result on screen. A failed load
 * is not loading (its message shows instead).
 */
export function listLoading(
  catalog: Loaded<unknown>,
  search: Loaded<SearchResult | null>,
  query: string,
  filters: SeriesFilters,
): boolean {
  if (catalog.status === "loading" && catalog.value === undefined) return true;
  return query !== "" && search.status === "loading" && !answers(search.value, query, filters);
}
