// Full-text search over the catalog for PCD.SEARCH and the pane's picker. MiniSearch
// keeps an inverted index (prefix and fuzzy matching without scanning every record),
// which matters while the user types over a few thousand series.
import MiniSearch, { type Query } from "minisearch";
import { compareCodes } from "./code-order";
import { findCountry } from "./countries";
import type { SearchHit, SearchOptions } from "./engine-api";
import { PcdError } from "./errors";
import type { SeriesInfo } from "./model";
import { ENGINE_DEFAULTS } from "./defaults";
import { MAX_SEARCH_TEXT_LENGTH, searchTextTooLong } from "./search-text-limit";

export const DEFAULT_SEARCH_LIMIT = ENGINE_DEFAULTS.searchLimit;

/**
 * Fuzzy matching is for typos in words, and its cost grows with a word's length (a
 * 30,000-character word would take seconds and almost 2 GB); longer words match by prefix only.
 */
export const MAX_FUZZY_TERM_LENGTH = 24;

/** Fuzzy distance: 20% of a word's length for words of 4 to MAX_FUZZY_TERM_LENGTH letters, at most 2 edits. */
export function fuzzyDistance(term: string): number | false {
  if (term.length <= 3 || term.length > MAX_FUZZY_TERM_LENGTH || /^\d+$/.test(term)) return false;
  return 0.2;
}

const SEARCH_FIELDS = ["code", "assessment", "commodity", "location", "coverage"] as const;

/** Where a country is written in a series: its location and, for local series, its coverage. */
const COUNTRY_FIELDS = ["location", "coverage"];

/**
 * The query with each word that names a country by ISO code or common name ("de", "uk",
 * "usa", "holland") widened to that word or the country's catalog name in the location
 * fields: "gas de" finds German gas series, and still whatever "de" itself starts.
 */
export function searchQuery(text: string, combineWith: "AND" | "OR"): Query {
  const words = text.split(/[\n\r\p{Z}\p{P}]+/u).filter((word) => word !== "");
  const queries: Query[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? "";
    // Two-word names ("great britain", "south korea") are tried before one word.
    const pair = i + 1 < words.length ? `${word} ${words[i + 1] ?? ""}` : "";
    const pairCountry = pair === "" ? undefined : findCountry(pair);
    const country = pairCountry ?? findCountry(word);
    const typed = pairCountry ? pair : word;
    if (pairCountry) i += 1;
    if (country === undefined || country.name.toLowerCase() === typed.toLowerCase()) {
      queries.push(typed);
      continue;
    }
    queries.push({
      combineWith: "OR",
      queries: [
        typed,
        {
          queries: [country.name],
          combineWith: "AND",
          fields: COUNTRY_FIELDS,
          prefix: false,
          fuzzy: false,
          boost: { location: 3, coverage: 3 },
        },
      ],
    });
  }
  return { combineWith, queries };
}

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

/** How many recent searches an index answers again without searching (a workbook's copies of one PCD.SEARCH). */
const RECENT_SEARCHES = 32;

export class SearchIndex {
  private readonly series: SeriesInfo[];
  private readonly index: MiniSearch<IndexedSeries>;
  /**
   * Recent answers by text and options, oldest first: a fuzzy search takes milliseconds, and a
   * workbook often holds the same search in many cells, each recalculated on its own. The index
   * never changes (a changed catalog gets a new one), so an answer stays right.
   */
  private readonly recent = new Map<string, SearchHit[]>();

  constructor(series: readonly SeriesInfo[]) {
    this.series = [...series];
    this.index = new MiniSearch<IndexedSeries>({
      fields: [...SEARCH_FIELDS],
      idField: "id",
      searchOptions: {
        // The code and the words of the assessment say most about a series.
        boost: { code: 3, assessment: 2, commodity: 1.5 },
        prefix: true,
        fuzzy: fuzzyDistance,
        maxFuzzy: 2,
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
    const key = JSON.stringify([
      text,
      options.limit,
      options.product,
      options.coverage,
      options.commodity,
      options.hasForecast,
    ]);
    let hits = this.recent.get(key);
    if (hits === undefined) {
      hits = this.searchIndex(text, options);
      if (this.recent.size >= RECENT_SEARCHES) this.recent.delete(this.recent.keys().next().value ?? "");
    } else {
      this.recent.delete(key);
    }
    this.recent.set(key, hits);
    return hits.map((hit) => ({ ...hit }));
  }

  private searchIndex(text: string, options: SearchOptions): SearchHit[] {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const accepts = (info: SeriesInfo): boolean =>
      (options.product === undefined || info.product === options.product) &&
      (options.coverage === undefined || sameText(info.coverage, options.coverage)) &&
      (options.commodity === undefined || sameText(info.commodity, options.commodity)) &&
      (options.hasForecast === undefined || info.hasForecast === options.hasForecast);

    const query = text.trim();
    // Checked here too, so the task pane's search box has the same cap as PCD.SEARCH.
    if (query.length > MAX_SEARCH_TEXT_LENGTH) {
      throw new PcdError("input", searchTextTooLong(query.length), { argument: "text" });
    }
    if (query === "") {
      return this.series
        .filter(accepts)
        .sort((a, b) => compareCodes(a.code, b.code))
        .slice(0, limit)
        .map((info) => ({ info, score: 0 }));
    }

    const filter = (result: { id: number }): boolean => {
      const info = this.series[result.id];
      return info !== undefined && accepts(info);
    };
    let results = this.index.search(searchQuery(query, "AND"), { filter });
    // All words must match when they can; otherwise any word, so a typo does not empty the list.
    if (results.length === 0) results = this.index.search(searchQuery(query, "OR"), { filter });

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

/**
 * The index of the catalogs as loaded, built again only when they changed (a new version)
 * or the environment switched: building it is the costly part of a search.
 */
export class SearchIndexCache {
  private current: { index: SearchIndex; version: number; environment: string } | undefined;

  indexOf(version: number, environment: string, series: () => readonly SeriesInfo[]): SearchIndex {
    if (this.current?.version !== version || this.current.environment !== environment) {
      this.current = { index: new SearchIndex(series()), version, environment };
    }
    return this.current.index;
  }

  clear(): void {
    this.current = undefined;
  }
}
