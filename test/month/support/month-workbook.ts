// The month's workbook, picked from the emulator's seeded catalog: keys with cells of
// different needs (a whole series and one old month of it; a latest value, the same
// series in another currency and a narrow table), a second product, and a dataset name
// that two products share (United States of energy and of industry economics), so cost
// and usage are compared per product and dataset. Probes are codes no cell has asked for
// yet: the formulas a user types during the month.
import type { SeriesDefinition } from "../../../src/emulator/catalog";
import { monthDate, monthIndex } from "../../../src/emulator/months";
import type { MonthLab } from "./month-lab";

export interface MonthWorkbook {
  formulas: string[];
  /** Codes whose History the month's History-only revision changes. */
  revised: string[];
  /** A new code for each formula typed during the month, in order. */
  probes: string[];
  /** The service's first final month ("YYYY-MM") of each series the workbook may ask for. */
  seriesStart: Record<string, string>;
}

/** Current, continuous series that reach back before October 2013. */
function usable(series: SeriesDefinition): boolean {
  return (
    series.lag === 0 && series.discontinuedMonth === undefined && series.startMonth <= monthIndex(2013, 10)
  );
}

function first(
  list: readonly SeriesDefinition[],
  what: string,
  fits: (s: SeriesDefinition) => boolean,
): SeriesDefinition {
  const found = list.find((series) => usable(series) && fits(series));
  if (!found) throw new Error(`the seeded catalog has no ${what}`);
  return found;
}

export function monthWorkbook(lab: Pick<MonthLab, "state">): MonthWorkbook {
  const { catalog } = lab.state;
  const energy = catalog.ofProduct("energy_price");
  const x = first(energy, "energy series in the United States", (s) => s.dataset === "United States");
  const y = first(
    energy,
    "energy series in EUR",
    (s) => s.defaultCurrency === "EUR" && s.availableCurrencies.includes("USD"),
  );
  const w = first(
    catalog.ofProduct("industry_economics"),
    "utility in the United States",
    (s) => s.dataType === "utility" && s.dataset === "United States",
  );
  const z = first(catalog.ofProduct("commodity_price"), "commodity series", () => true);
  const taken = new Set([x.code, y.code, w.code, z.code]);
  const probes = energy
    .filter((s) => usable(s) && !taken.has(s.code) && s.dataset !== x.dataset)
    .slice(0, 24)
    .map((s) => s.code);
  return {
    formulas: [
      `=PCD.VALUES("${x.code}")`,
      `=PCD.VALUE("${x.code}",DATE(2013,10,1))`,
      `=PCD.VALUE("${y.code}")`,
      `=PCD.VALUES("${y.code}","USD")`,
      `=PCD.VALUES("${y.code}",,,DATE(2019,1,1),"2019-06")`,
      `=PCD.VALUE("${z.code}")`,
      `=PCD.VALUE("${w.code}")`,
      // A month no series has: the message says what the series holds (not the part cached).
      `=PCD.VALUE("${z.code}",DATE(2031,1,1))`,
    ],
    revised: [x.code, z.code],
    probes,
    seriesStart: Object.fromEntries(
      [x, y, w, z, ...probes.map((code) => catalog.get(code))].flatMap((series) =>
        series ? [[series.code, monthDate(series.startMonth).slice(0, 7)]] : [],
      ),
    ),
  };
}
