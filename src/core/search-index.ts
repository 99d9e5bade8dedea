// Full-text search over the catalog for PCD.SEARCH and the pane's picker. MiniSearch
// keeps an inverted index (prefix and fuzzy matching without scanning every record),
// which matters while the user types over a few thousand series.
import MiniSearch from "minisearch";
import type { SearchHit, SearchOptions } from "./engine-api";
import type { SeriesInfo } from "./model";

export const DEFAULT_SEARCH_LIMIT = 50;

const SEARCH_FIELDS = ["code", "assessment", "commodity", "location", "coverage"] as const;

interface IndexedSeries {
  id: number;
  code: string;
  assessment: string;
  commodity: string;
  location: string;
  coverage: string;
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export class SearchIndex {
  private readonly series: SeriesInfo[];
  private readonly index: MiniSearch<IndexedSeries>;

  constructor(series: readonly SeriesInfo[]) {
    this.series = [...series];
    this.index = new MiniSearch<IndexedSeries>({
      fields: [...SEARCH_FIELDS],
      idField: "id",
      searchOptions: {
        // The code and the words of the assessment say most about a series.
        boost: { code: 3, assessment: 2, commodity: 1.5 },
        prefix: true,
        fuzzy: (term) => (term.length > 3 && !/^\d+$/.test(term) ? 0.2 : false),
      },
    });
    this.index.addAll(
      this.series.map((info, id) => ({
        id,
        code: info.code,
        assessment: info.assessment,
        commodity: info.commodity,
        location: info.location,
        coverage: info.coverage,
      })),
    );
  }

  get size(): number {
    return this.series.length;
  }

  /** Ranked matches; an exact code match is always first. Blank text lists the filtered catalog. */
  search(text: string, options: SearchOptions = {}): SearchHit[] {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const accepts = (info: SeriesInfo): boolean =>
      (options.product === undefined || info.product === options.product) &&
      (options.coverage === undefined || sameText(info.coverage, options.coverage)) &&
      (options.commodity === undefined || sameText(info.commodity, options.commodity)) &&
      (options.hasForecast === undefined || info.hasForecast === options.hasForecast);

    const query = text.trim();
    if (query === "") {
      return this.series
        .filter(accepts)
        .sort((a, b) => a.code.localeCompare(b.code, "en", { numeric: true }))
        .slice(0, limit)
        .map((info) => ({ info, score: 0 }));
    }

    const filter = (result: { id: number }): boolean => {
      const info = this.series[result.id];
      return info !== undefined && accepts(info);
    };
    let results = this.index.search(query, { combineWith: "AND", filter });
    // All words must match when they can; otherwise any word, so a typo does not empty the list.
    if (results.length === 0) results = this.index.search(query, { combineWith: "OR", filter });

    const hits: SearchHit[] = [];
    for (const result of results) {
      const info = this.series[result.id as number];
      if (info) hits.push({ info, score: result.score });
    }
    const exact = hits.findIndex((hit) => hit.info.code === query);
    if (exact > 0) {
      const [hit] = hits.splice(exact, 1);
      if (hit) hits.unshift({ info: hit.info, score: (hits[0]?.score ?? 0) + 1 });
    }
    return hits.slice(0, limit);
  }
}
