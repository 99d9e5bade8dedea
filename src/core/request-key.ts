// Request keys identify one cached series in one currency and unit. A currency or unit
// equal to the series default is written "default", so a cell that spells the default
// out and a cell that omits it share one data request and one cache entry.
import { PcdError } from "./errors";
import type { ProductId, SeriesInfo, ServiceEnvironment } from "./model";
import { PRODUCTS } from "./model";
import { CURRENCIES, findReference, UNITS } from "./reference";

const DEFAULT_OPTION = "default";

export interface RequestKeyParts {
  environment: ServiceEnvironment;
  product: ProductId;
  code: string;
  /** null = the series default. */
  currencyId: number | null;
  unitId: number | null;
}

type DefaultsOf = Pick<SeriesInfo, "defaultCurrency" | "defaultUnit">;

/** Drops a currency/unit ID that equals the series default (null means "not sent"). */
export function normaliseOptions(
  info: DefaultsOf,
  currencyId: number | null,
  unitId: number | null,
): { currencyId: number | null; unitId: number | null } {
  const defaultCurrencyId = info.defaultCurrency
    ? findReference(CURRENCIES, info.defaultCurrency)?.id
    : undefined;
  const defaultUnitId = info.defaultUnit ? findReference(UNITS, info.defaultUnit)?.id : undefined;
  return {
    currencyId: currencyId === defaultCurrencyId ? null : currencyId,
    unitId: unitId === defaultUnitId ? null : unitId,
  };
}

/** `${environment}|${product}|${code}|${currency}|${unit}` with defaults normalised. */
export function requestKey(
  environment: ServiceEnvironment,
  info: DefaultsOf & Pick<SeriesInfo, "product" | "code">,
  currencyId: number | null,
  unitId: number | null,
): string {
  const options = normaliseOptions(info, currencyId, unitId);
  return [
    environment,
    info.product,
    info.code,
    options.currencyId ?? DEFAULT_OPTION,
    options.unitId ?? DEFAULT_OPTION,
  ].join("|");
}

function parseOption(text: string, key: string): number | null {
  if (text === DEFAULT_OPTION) return null;
  if (!/^\d+$/.test(text)) throw new PcdError("input", `Malformed request key '${key}': option '${text}'.`);
  return Number(text);
}

/** The inverse of requestKey (persisted workbook keys are planned before cells evaluate). */
export function parseRequestKey(key: string): RequestKeyParts {
  const parts = key.split("|");
  const [environment, product, code, currency, unit] = parts;
  if (parts.length !== 5 || environment === undefined || product === undefined || code === undefined) {
    throw new PcdError("input", `Malformed request key '${key}': expected 5 parts separated by '|'.`);
  }
  if (environment !== "live" && environment !== "sandbox") {
    throw new PcdError("input", `Malformed request key '${key}': unknown environment '${environment}'.`);
  }
  const knownProduct = PRODUCTS.find((candidate) => candidate === product);
  if (!knownProduct)
    throw new PcdError("input", `Malformed request key '${key}': unknown product '${product}'.`);
  return {
    environment,
    product: knownProduct,
    code,
    currencyId: parseOption(currency ?? "", key),
    unitId: parseOption(unit ?? "", key),
  };
}
