// The emulator's own copy of the reference tables of docs/service.md §2.4, typed from the
// spec and NOT imported from src/core (docs/decisions.md D21: a mistake copied into both
// would pass every test). Each unit also carries its physical dimension and its size in
// the dimension's base unit, which is what makes conversions consistent.

export type CurrencyName = "USD" | "USD cent" | "EUR" | "CNY" | "JPY" | "GBP";

export interface CurrencyEntry {
  id: number;
  shortName: CurrencyName;
  fullName: string;
}

export const CURRENCY_TABLE: readonly CurrencyEntry[] = [
  { id: 1, shortName: "USD", fullName: "United States Dollar" },
  { id: 2, shortName: "USD cent", fullName: "United States Dollar Cent" },
  { id: 3, shortName: "EUR", fullName: "Euro" },
  { id: 4, shortName: "CNY", fullName: "Chinese Yuan Renminbi" },
  { id: 5, shortName: "JPY", fullName: "Japanese Yen" },
  { id: 9, shortName: "GBP", fullName: "British Pound Sterling" },
];

/** Units convert only within one dimension ("Nm3" is gas at normal conditions, not plain volume). */
export type Dimension = "mass" | "volume" | "energy" | "normal-volume";

export type UnitName =
  | "mt"
  | "m3"
  | "MMBtu"
  | "kWh"
  | "Nm3"
  | "kg"
  | "MWh"
  | "Bbl"
  | "lb"
  | "l"
  | "gal"
  | "t oz"
  | "MJ"
  | "st"
  | "GJ"
  | "g";

export interface UnitEntry {
  id: number;
  shortName: UnitName;
  fullName: string;
  dimension: Dimension;
  /** Size in the dimension's base unit: kg for mass, m3 for volume, MJ for energy, Nm3. */
  size: number;
}

export const UNIT_TABLE: readonly UnitEntry[] = [
  { id: 1, shortName: "mt", fullName: "Metric Ton", dimension: "mass", size: 1000 },
  { id: 2, shortName: "m3", fullName: "Cubic Meter", dimension: "volume", size: 1 },
  {
    id: 3,
    shortName: "MMBtu",
    fullName: "Million British Thermal Unit",
    dimension: "energy",
    size: 1055.05585262,
  },
  { id: 4, shortName: "kWh", fullName: "Kilowatt Hour", dimension: "energy", size: 3.6 },
  { id: 5, shortName: "Nm3", fullName: "Normal Cubic Meter", dimension: "normal-volume", size: 1 },
  { id: 6, shortName: "kg", fullName: "Kilogram", dimension: "mass", size: 1 },
  { id: 7, shortName: "MWh", fullName: "Megawatt Hour", dimension: "energy", size: 3600 },
  { id: 9, shortName: "Bbl", fullName: "Oil Barrel", dimension: "volume", size: 0.158987294928 },
  { id: 10, shortName: "lb", fullName: "Pound", dimension: "mass", size: 0.45359237 },
  { id: 12, shortName: "l", fullName: "Liter", dimension: "volume", size: 0.001 },
  { id: 13, shortName: "gal", fullName: "US Liquid Gallon", dimension: "volume", size: 0.003785411784 },
  { id: 18, shortName: "t oz", fullName: "Troy Ounce", dimension: "mass", size: 0.0311034768 },
  { id: 23, shortName: "MJ", fullName: "Megajoule", dimension: "energy", size: 1 },
  { id: 25, shortName: "st", fullName: "Short Ton", dimension: "mass", size: 907.18474 },
  { id: 31, shortName: "GJ", fullName: "Gigajoule", dimension: "energy", size: 1000 },
  { id: 35, shortName: "g", fullName: "Gram", dimension: "mass", size: 0.001 },
];

export function currencyById(id: number): CurrencyEntry | undefined {
  return CURRENCY_TABLE.find((entry) => entry.id === id);
}

export function unitById(id: number): UnitEntry | undefined {
  return UNIT_TABLE.find((entry) => entry.id === id);
}

export function unitByName(name: UnitName): UnitEntry {
  const entry = UNIT_TABLE.find((unit) => unit.shortName === name);
  if (entry === undefined) throw new Error(`Unknown unit short name '${name}'`);
  return entry;
}

/** The units a series may list: those of its default unit's dimension, troy ounces only for precious metals. */
export function unitsOfDimension(dimension: Dimension, includeTroyOunce: boolean): UnitName[] {
  return UNIT_TABLE.filter(
    (unit) => unit.dimension === dimension && (includeTroyOunce || unit.shortName !== "t oz"),
  ).map((unit) => unit.shortName);
}
