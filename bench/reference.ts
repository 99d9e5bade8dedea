// The currency and unit tables of docs/service.md §2.4, kept here rather than imported from
// src/core: the benchmark's bounds and its naive client must not inherit a mistake of the
// engine they measure.

export interface ReferenceEntry {
  id: number;
  shortName: string;
}

export const CURRENCIES: readonly ReferenceEntry[] = [
  { id: 1, shortName: "USD" },
  { id: 2, shortName: "USD cent" },
  { id: 3, shortName: "EUR" },
  { id: 4, shortName: "CNY" },
  { id: 5, shortName: "JPY" },
  { id: 9, shortName: "GBP" },
];

export const UNITS: readonly ReferenceEntry[] = [
  { id: 1, shortName: "mt" },
  { id: 2, shortName: "m3" },
  { id: 3, shortName: "MMBtu" },
  { id: 4, shortName: "kWh" },
  { id: 5, shortName: "Nm3" },
  { id: 6, shortName: "kg" },
  { id: 7, shortName: "MWh" },
  { id: 9, shortName: "Bbl" },
  { id: 10, shortName: "lb" },
  { id: 12, shortName: "l" },
  { id: 13, shortName: "gal" },
  { id: 18, shortName: "t oz" },
  { id: 23, shortName: "MJ" },
  { id: 25, shortName: "st" },
  { id: 31, shortName: "GJ" },
  { id: 35, shortName: "g" },
];

/** The entry whose short name matches, ignoring case (formulas accept "eur" for "EUR"). */
export function findByName(table: readonly ReferenceEntry[], name: string): ReferenceEntry | undefined {
  const wanted = name.trim().toLowerCase();
  return table.find((entry) => entry.shortName.toLowerCase() === wanted);
}
