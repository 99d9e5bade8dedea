// The reference tables of docs/service.md §2.4. The engine keys requests by these IDs;
// users may type either the short name (any case) or the ID. The emulator keeps its
// own copy on purpose (docs/decisions.md D21): a mistake here must not be mirrored there.

export interface ReferenceEntry {
  id: number;
  shortName: string;
  fullName: string;
}

export const CURRENCIES: readonly ReferenceEntry[] = [
  { id: 1, shortName: "USD", fullName: "United States Dollar" },
  { id: 2, shortName: "USD cent", fullName: "United States Dollar Cent" },
  { id: 3, shortName: "EUR", fullName: "Euro" },
  { id: 4, shortName: "CNY", fullName: "Chinese Yuan Renminbi" },
  { id: 5, shortName: "JPY", fullName: "Japanese Yen" },
  { id: 9, shortName: "GBP", fullName: "British Pound Sterling" },
];

export const UNITS: readonly ReferenceEntry[] = [
  { id: 1, shortName: "mt", fullName: "Metric Ton" },
  { id: 2, shortName: "m3", fullName: "Cubic Meter" },
  { id: 3, shortName: "MMBtu", fullName: "Million British Thermal Unit" },
  { id: 4, shortName: "kWh", fullName: "Kilowatt Hour" },
  { id: 5, shortName: "Nm3", fullName: "Normal Cubic Meter" },
  { id: 6, shortName: "kg", fullName: "Kilogram" },
  { id: 7, shortName: "MWh", fullName: "Megawatt Hour" },
  { id: 9, shortName: "Bbl", fullName: "Oil Barrel" },
  { id: 10, shortName: "lb", fullName: "Pound" },
  { id: 12, shortName: "l", fullName: "Liter" },
  { id: 13, shortName: "gal", fullName: "US Liquid Gallon" },
  { id: 18, shortName: "t oz", fullName: "Troy Ounce" },
  { id: 23, shortName: "MJ", fullName: "Megajoule" },
  { id: 25, shortName: "st", fullName: "Short Ton" },
  { id: 31, shortName: "GJ", fullName: "Gigajoule" },
  { id: 35, shortName: "g", fullName: "Gram" },
];

function normaliseName(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

/** Finds an entry by short name (case- and spacing-insensitive) or by numeric ID. */
export function findReference(
  table: readonly ReferenceEntry[],
  input: string | number,
): ReferenceEntry | undefined {
  if (typeof input === "number") return table.find((entry) => entry.id === input);
  const wanted = normaliseName(input);
  if (/^\d+$/.test(wanted)) return table.find((entry) => entry.id === Number(wanted));
  return table.find((entry) => normaliseName(entry.shortName) === wanted);
}
