// The catalog: every assessment the emulator serves, generated once at start-up from
// the seed (docs/decisions.md D27: precompute, so Series Info is fast). Definitions hold only
// what does not change with releases; release-dependent fields (last_available_final,
// updated_at, series_hist_changed) are derived per request from the release state.
import {
  COMMODITY_REGIONS,
  COMMODITY_TERMS,
  COST_INDEX_COMPONENTS,
  COUNTRIES,
  COUNTRY_AREAS,
  ENERGY_TEMPLATES,
  LOCATION_FACTOR_REFERENCES,
  REGION_PORTS,
  SECTORS,
  SECTOR_COMMODITIES,
  UTILITY_TEMPLATES,
  countryCurrency,
  countryPriceLevel,
  regionCurrency,
  type SeriesTemplate,
} from "./catalog-data";
import { CATALOG_CACHE_VARIABLE, keepCatalog, readKeptCatalog } from "./kept-catalogs";
import { monthIndex } from "./months";
import { Prng } from "./prng";
import { unitByName, unitsOfDimension, type CurrencyName, type UnitName } from "./reference";

export const PRODUCT_IDS = ["energy_price", "commodity_price", "industry_economics"] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];

export const PRODUCT_NAMES: Readonly<Record<ProductId, string>> = {
  energy_price: "Energy Price",
  commodity_price: "Primary Commodity Price",
  industry_economics: "Industry Economics",
};

/** Industry economics data types (one per call); "price" for the other two products. */
export type DataType = "price" | "utility" | "location_factor" | "cost_index";

export interface SeriesDefinition {
  code: string;
  product: ProductId;
  /** Dataset = coverage (country or sector); quotas are kept per product and dataset. */
  dataset: string;
  dataType: DataType;
  commodity: string;
  assessment: string;
  location: string;
  /** undefined = the "not applicable" marker. */
  area: string | undefined;
  details: string | undefined;
  specification: string;
  /** undefined for non-utility industry series (currency/unit not applicable). */
  defaultCurrency: CurrencyName | undefined;
  defaultUnit: UnitName | undefined;
  availableCurrencies: readonly CurrencyName[];
  availableUnits: readonly UnitName[];
  hasForecast: boolean;
  hasPreliminary: boolean;
  lag: 0 | 1;
  startMonth: number;
  /** Month index of the frozen last final of a discontinued series. */
  discontinuedMonth: number | undefined;
  successorCode: string | undefined;
  /** Value model: level in USD per default unit (or index points) in 2007, volatility, trend. */
  magnitude: number;
  volatility: number;
  /** Yearly drift of the log value (cost indexes rise; prices wander). */
  drift: number;
  seasonality: number;
  incoterm: string;
  marketType: string;
  priceType: string;
}

const ENERGY_CURRENCIES: readonly CurrencyName[] = ["USD", "EUR", "GBP", "CNY", "JPY"];
const COMMODITY_CURRENCIES: readonly CurrencyName[] = ["USD", "USD cent", "EUR", "GBP", "CNY", "JPY"];

/** 2009-01 .. 2016-12: later starts for some series. */
const LATE_START_RANGE: readonly [number, number] = [monthIndex(2009, 1), monthIndex(2016, 12)];
/** Discontinuation months lie well in the past whatever the emulator's clock says. */
const DISCONTINUED_RANGE: readonly [number, number] = [monthIndex(2012, 1), monthIndex(2021, 12)];

export class Catalog {
  readonly series: readonly SeriesDefinition[];
  private readonly byCode: Map<string, SeriesDefinition>;
  private readonly byProduct: Map<ProductId, SeriesDefinition[]>;

  constructor(series: readonly SeriesDefinition[]) {
    this.series = series;
    this.byCode = new Map(series.map((definition) => [definition.code, definition]));
    this.byProduct = new Map(PRODUCT_IDS.map((product) => [product, []]));
    for (const definition of series) this.byProduct.get(definition.product)?.push(definition);
  }

  get(code: string): SeriesDefinition | undefined {
    return this.byCode.get(code);
  }

  ofProduct(product: ProductId): readonly SeriesDefinition[] {
    return this.byProduct.get(product) ?? [];
  }

  /** Dataset names of a product, in first-seen order. */
  datasets(product: ProductId): string[] {
    return [...new Set(this.ofProduct(product).map((definition) => definition.dataset))];
  }
}

interface Draft extends Omit<SeriesDefinition, "code" | "successorCode" | "discontinuedMonth"> {
  codeMiddle: number;
  codeLast: number;
  /** Key of the first code group: series sharing it share the group (same commodity line). */
  groupKey: string;
}

/** Generates the catalog deterministically from the seed. */
export function generateCatalog(seed: number): Catalog {
  const drafts: Draft[] = [...energyDrafts(seed), ...commodityDrafts(seed), ...industryDrafts(seed)];
  const codes = new CodeAllocator(seed);
  const series: SeriesDefinition[] = [];
  for (const draft of drafts) {
    const random = Prng.from(seed, "lifecycle", draft.groupKey, draft.codeMiddle, draft.codeLast);
    const code = codes.code(draft.groupKey, draft.codeMiddle, draft.codeLast);
    const { codeMiddle: _middle, codeLast: _last, groupKey: _group, ...fields } = draft;
    const discontinued = draft.dataType !== "location_factor" && random.chance(0.03);
    if (!discontinued) {
      series.push({ ...fields, code, discontinuedMonth: undefined, successorCode: undefined });
      continue;
    }
    // A significant basis change: the old code freezes, a successor with new terms takes over.
    const frozen = Math.max(fields.startMonth + 24, random.int(...DISCONTINUED_RANGE));
    const successorCode = codes.code(`${draft.groupKey}|successor`, draft.codeMiddle, draft.codeLast);
    series.push({
      ...fields,
      code,
      hasForecast: false,
      discontinuedMonth: frozen,
      successorCode,
    });
    series.push({
      ...fields,
      code: successorCode,
      assessment: `${fields.assessment}, revised basis`,
      startMonth: frozen - 2,
      discontinuedMonth: undefined,
      successorCode: undefined,
    });
  }
  return new Catalog(withDocumentedCodes(series));
}

/**
 * The codes docs/service.md §1 quotes from real deployments, given to fitting series so the
 * documentation's examples (=PCD.VALUES("68520-8-1","EUR","MWh"), ...) work against the
 * emulator. Each goes to the first live, never-replaced series that matches; generated
 * codes never collide with them (they are renamed only when free).
 */
const DOCUMENTED_CODES: ReadonlyArray<{ code: string; fits: (definition: SeriesDefinition) => boolean }> = [
  {
    code: "68520-8-1",
    fits: (d) =>
      d.product === "energy_price" &&
      d.hasForecast &&
      d.availableCurrencies.includes("EUR") &&
      d.availableUnits.includes("MWh"),
  },
  { code: "43125-8-1", fits: (d) => d.product === "energy_price" },
  { code: "91201-1-5", fits: (d) => d.product === "commodity_price" && d.hasForecast },
  { code: "69138-1-13", fits: (d) => d.product === "commodity_price" },
  { code: "2259-6-2", fits: (d) => d.product === "industry_economics" && d.dataType === "utility" },
  { code: "912-5-2", fits: (d) => d.product === "industry_economics" && d.dataType === "cost_index" },
];

function withDocumentedCodes(series: SeriesDefinition[]): SeriesDefinition[] {
  const taken = new Set(series.map((definition) => definition.code));
  const linked = new Set(
    series.flatMap((definition) => (definition.successorCode ? [definition.successorCode] : [])),
  );
  const renamed = new Set<number>();
  for (const { code, fits } of DOCUMENTED_CODES) {
    if (taken.has(code)) continue;
    const index = series.findIndex(
      (definition, i) =>
        !renamed.has(i) &&
        definition.discontinuedMonth === undefined &&
        !linked.has(definition.code) &&
        fits(definition),
    );
    if (index < 0) continue;
    renamed.add(index);
    series[index] = { ...series[index]!, code };
    taken.add(code);
  }
  return series;
}

/** Hands out unique codes "<group>-<middle>-<last>"; groups are 3-5 digits, some with a leading zero. */
class CodeAllocator {
  private readonly groups = new Map<string, string>();
  private readonly usedGroups = new Set<string>();

  constructor(private readonly seed: number) {}

  code(groupKey: string, middle: number, last: number): string {
    return `${this.group(groupKey)}-${middle}-${last}`;
  }

  private group(groupKey: string): string {
    const known = this.groups.get(groupKey);
    if (known !== undefined) return known;
    const random = Prng.from(this.seed, "code-group", groupKey);
    for (;;) {
      const leadingZero = random.chance(0.06);
      const text = leadingZero ? `0${random.int(100, 9999)}` : String(random.int(100, 99999));
      if (!this.usedGroups.has(text)) {
        this.usedGroups.add(text);
        this.groups.set(groupKey, text);
        return text;
      }
    }
  }
}

interface CommonDraftInput {
  random: Prng;
  forecastProbability: number;
}

function lifecycle({ random, forecastProbability }: CommonDraftInput): {
  startMonth: number;
  lag: 0 | 1;
  hasForecast: boolean;
  hasPreliminary: boolean;
  seasonality: number;
} {
  return {
    startMonth: random.chance(0.15) ? random.int(...LATE_START_RANGE) : 0,
    lag: random.chance(0.1) ? 1 : 0,
    hasForecast: random.chance(forecastProbability),
    hasPreliminary: random.chance(0.1),
    seasonality: random.next() * 0.06,
  };
}

function unitLists(unit: UnitName, precious: boolean): readonly UnitName[] {
  return unitsOfDimension(unitByName(unit).dimension, precious);
}

function energyDrafts(seed: number): Draft[] {
  const drafts: Draft[] = [];
  COUNTRIES.forEach((country, countryIndex) => {
    ENERGY_TEMPLATES.forEach((template, templateIndex) => {
      const random = Prng.from(seed, "energy", country, templateIndex);
      if (!random.chance(0.9)) return;
      drafts.push({
        ...localSeries(template, country, "energy_price", random, 0.7),
        groupKey: `energy|${templateIndex}`,
        codeMiddle: 1 + (templateIndex % 9),
        codeLast: countryIndex + 1,
      });
    });
  });
  return drafts;
}

function industryDrafts(seed: number): Draft[] {
  const drafts: Draft[] = [];
  COUNTRIES.forEach((country, countryIndex) => {
    UTILITY_TEMPLATES.forEach((template, templateIndex) => {
      const random = Prng.from(seed, "utility", country, templateIndex);
      if (!random.chance(0.92)) return;
      drafts.push({
        ...localSeries(template, country, "industry_economics", random, 0.5),
        dataType: "utility",
        groupKey: `utility|${templateIndex}`,
        codeMiddle: 1 + (templateIndex % 9),
        codeLast: countryIndex + 1,
      });
    });
    COST_INDEX_COMPONENTS.forEach((component, componentIndex) => {
      const random = Prng.from(seed, "cost-index", country, componentIndex);
      drafts.push({
        ...notApplicableSeries(country, random, 0.5),
        dataType: "cost_index",
        commodity: "Plant Construction Cost Index",
        assessment: `Plant Construction Cost Index, ${country}, ${component}`,
        specification: `Index 2007 = 100, ${component}`,
        magnitude: 100,
        volatility: 0.008,
        drift: 0.025 + random.next() * 0.03,
        seasonality: 0,
        startMonth: 0,
        priceType: "Index",
        groupKey: `cost-index|${componentIndex}`,
        codeMiddle: 1 + componentIndex,
        codeLast: countryIndex + 1,
      });
    });
    LOCATION_FACTOR_REFERENCES.forEach((reference, referenceIndex) => {
      if (reference === country) return;
      const random = Prng.from(seed, "location-factor", country, referenceIndex);
      drafts.push({
        ...notApplicableSeries(country, random, 0),
        dataType: "location_factor",
        commodity: "Location Factor",
        assessment: `Location factor, ${country} vs ${reference}`,
        specification: `Plant construction cost in ${country} relative to ${reference} = 1.00`,
        magnitude: countryPriceLevel(country) / countryPriceLevel(reference),
        volatility: 0.004,
        drift: 0,
        seasonality: 0,
        hasForecast: false,
        priceType: "Factor",
        groupKey: `location-factor|${referenceIndex}`,
        codeMiddle: 1 + referenceIndex,
        codeLast: countryIndex + 1,
      });
    });
  });
  return drafts;
}

function localSeries(
  template: SeriesTemplate,
  country: string,
  product: ProductId,
  random: Prng,
  forecastProbability: number,
): Omit<Draft, "groupKey" | "codeMiddle" | "codeLast"> {
  const area = COUNTRY_AREAS[country];
  return {
    product,
    dataset: country,
    dataType: "price",
    commodity: template.commodity,
    assessment: `${template.commodity}, ${template.terms}, ${country}`,
    location: country,
    area: area !== undefined && random.chance(0.5) ? area : undefined,
    details: template.details,
    specification: template.specification,
    defaultCurrency: countryCurrency(country),
    defaultUnit: template.unit,
    availableCurrencies: ENERGY_CURRENCIES,
    availableUnits: unitLists(template.unit, false),
    ...lifecycle({ random, forecastProbability }),
    magnitude: template.magnitude * countryPriceLevel(country),
    volatility: template.volatility ?? 0.04,
    drift: 0.01,
    incoterm: "Delivered",
    marketType: template.terms.includes("tariff") ? "Tariff" : "Market",
    priceType: "Average",
  };
}

function notApplicableSeries(
  country: string,
  random: Prng,
  forecastProbability: number,
): Omit<
  Draft,
  | "groupKey"
  | "codeMiddle"
  | "codeLast"
  | "dataType"
  | "commodity"
  | "assessment"
  | "specification"
  | "magnitude"
  | "volatility"
  | "drift"
  | "priceType"
> {
  return {
    product: "industry_economics",
    dataset: country,
    location: country,
    area: undefined,
    details: undefined,
    defaultCurrency: undefined,
    defaultUnit: undefined,
    availableCurrencies: [],
    availableUnits: [],
    ...lifecycle({ random, forecastProbability }),
    incoterm: "n/a",
    marketType: "Index",
  };
}

function commodityDrafts(seed: number): Draft[] {
  const drafts: Draft[] = [];
  for (const sector of SECTORS) {
    const commodities = SECTOR_COMMODITIES[sector] ?? [];
    commodities.forEach((commodity, commodityIndex) => {
      const random = Prng.from(seed, "commodity", sector, commodityIndex);
      const regionCount = random.int(3, 8);
      const regions = [...COMMODITY_REGIONS]
        .map((region) => ({ region, order: random.next() }))
        .sort((left, right) => left.order - right.order)
        .slice(0, regionCount)
        .map(({ region }) => region);
      for (const region of regions) {
        const regionIndex = COMMODITY_REGIONS.indexOf(region);
        const termIndex = random.int(0, COMMODITY_TERMS.length - 1);
        const terms = COMMODITY_TERMS[termIndex] ?? {
          terms: "spot price",
          incoterm: "CFR",
          marketType: "Spot",
        };
        const seriesRandom = Prng.from(seed, "commodity-series", sector, commodityIndex, region);
        const port = REGION_PORTS[region];
        drafts.push({
          product: "commodity_price",
          dataset: sector,
          dataType: "price",
          commodity: commodity.name,
          assessment: `${commodity.name}, ${terms.terms}, ${terms.incoterm} ${region}`,
          location: region,
          area: port !== undefined && seriesRandom.chance(0.6) ? port : undefined,
          details: seriesRandom.chance(0.4) ? `${terms.marketType} assessment, monthly average` : undefined,
          specification: commodity.specification,
          defaultCurrency:
            commodity.precious && seriesRandom.chance(0.3) ? "USD cent" : regionCurrency(region),
          defaultUnit: commodity.unit,
          availableCurrencies: COMMODITY_CURRENCIES,
          availableUnits: unitLists(commodity.unit, commodity.precious === true),
          ...lifecycle({ random: seriesRandom, forecastProbability: 0.6 }),
          magnitude: commodity.magnitude * (0.85 + seriesRandom.next() * 0.3),
          volatility: 0.03 + seriesRandom.next() * 0.04,
          drift: 0.01,
          incoterm: terms.incoterm,
          marketType: terms.marketType,
          priceType: "Average",
          groupKey: `commodity|${sector}|${commodityIndex}`,
          codeMiddle: 1 + termIndex,
          codeLast: regionIndex + 1,
        });
      }
    });
  }
  return drafts;
}

const catalogsBySeed = new Map<number, Catalog>();

/**
 * The catalog of a seed, generated once per process: it is immutable, so emulators
 * started in the same process (tests, benchmarks) share it and start quickly. With
 * PCD_EMULATOR_CATALOG_CACHE set, processes share it too (kept-catalogs.ts).
 */
export function catalogForSeed(seed: number): Catalog {
  let catalog = catalogsBySeed.get(seed);
  if (catalog === undefined) {
    const folder = process.env[CATALOG_CACHE_VARIABLE];
    const kept = folder ? readKeptCatalog(folder, seed) : undefined;
    catalog = kept ? new Catalog(kept) : generateCatalog(seed);
    if (folder && !kept) keepCatalog(folder, seed, catalog.series);
    catalogsBySeed.set(seed, catalog);
  }
  return catalog;
}
