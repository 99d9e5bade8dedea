// Request keys identify one cached series in one currency and unit, in one environment.
// A key is made once, as a structured RequestKey, when a cell's arguments are resolved
// (resolve-request.ts) or when the workbook's key list is read back from storage; its
// parts are read from the object, never from text. Its string form (id) exists for maps,
// change subscriptions and storage only: nothing splits it (the ESLint rule pcd/no-request-key-parsing).
//
// A currency or unit equal to the series default is dropped (null, "default" in the id),
// so a cell that spells the default out and a cell that omits it share one data request
// and one cache entry.
import * as v from "valibot";
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

export interface RequestKey extends Readonly<RequestKeyParts> {
  /**
   * `${environment}|${product}|${code}|${currency}|${unit}`, "default" for the series
   * default: the key's name in maps and storage. Equal ids are the same RequestKey object.
   */
  readonly id: string;
}

/**
 * Every key made in this process, by id: one object per key (a workbook of 100,000 cells
 * holds a few thousand), and the way a cell's id leads back to its key (findRequestKey).
 */
const made = new Map<string, RequestKey>();

/** The key of already normalised parts (one object per id). */
export function requestKeyOf(parts: RequestKeyParts): RequestKey {
  const id = [
    parts.environment,
    parts.product,
    parts.code,
    parts.currencyId ?? DEFAULT_OPTION,
    parts.unitId ?? DEFAULT_OPTION,
  ].join("|");
  let key = made.get(id);
  if (key === undefined) {
    key = Object.freeze({
      id,
      environment: parts.environment,
      product: parts.product,
      code: parts.code,
      currencyId: parts.currencyId,
      unitId: parts.unitId,
    });
    made.set(id, key);
  }
  return key;
}

type DefaultsOf = Pick<SeriesInfo, "defaultCurrency" | "defaultUnit">;

/**
 * The key of a series in a currency and unit (IDs, null for none asked): an ID equal to
 * the series default is dropped here, the one place options are normalised.
 */
export function makeRequestKey(
  environment: ServiceEnvironment,
  info: DefaultsOf & Pick<SeriesInfo, "product" | "code">,
  currencyId: number | null,
  unitId: number | null,
): RequestKey {
  // A recalculation resolves every cell again: the key of a catalog record with given
  // options is found by three map lookups, without looking up its defaults again or
  // building its id text (the record objects stay the same until the catalog is refreshed).
  const byUnit = childOf(childOf(childOf(keysByRecord, info), environment), currencyId);
  let key = byUnit.get(unitId);
  if (key === undefined) {
    key = makeRequestKeyOnce(environment, info, currencyId, unitId);
    byUnit.set(unitId, key);
  }
  return key;
}

type Level<V> = Map<unknown, V>;

/** The map under `key`, made when there is none yet. */
function childOf<K, V>(
  parent: { get(key: K): Level<V> | undefined; set(key: K, value: Level<V>): unknown },
  key: K,
): Level<V> {
  let child = parent.get(key);
  if (child === undefined) {
    child = new Map();
    parent.set(key, child);
  }
  return child;
}

/** Keys made per catalog record, then environment, currency and unit. */
const keysByRecord = new WeakMap<object, Level<Level<Level<RequestKey>>>>();

function makeRequestKeyOnce(
  environment: ServiceEnvironment,
  info: DefaultsOf & Pick<SeriesInfo, "product" | "code">,
  currencyId: number | null,
  unitId: number | null,
): RequestKey {
  const defaultCurrencyId = info.defaultCurrency
    ? findReference(CURRENCIES, info.defaultCurrency)?.id
    : undefined;
  const defaultUnitId = info.defaultUnit ? findReference(UNITS, info.defaultUnit)?.id : undefined;
  return requestKeyOf({
    environment,
    product: info.product,
    code: info.code,
    currencyId: currencyId === defaultCurrencyId ? null : currencyId,
    unitId: unitId === defaultUnitId ? null : unitId,
  });
}

/**
 * The key a cell holds by id (streaming cells subscribe and hold by id): a lookup among
 * the keys made in this process, not a reading of the text. Undefined for an id no
 * resolution or stored list made.
 */
export function findRequestKey(id: string): RequestKey | undefined {
  return made.get(id);
}

/** How a key is stored (the workbook's key list): its parts, so reading it back parses nothing. */
export type StoredRequestKey = RequestKeyParts;

export function toStoredRequestKey(key: RequestKey): StoredRequestKey {
  return {
    environment: key.environment,
    product: key.product,
    code: key.code,
    currencyId: key.currencyId,
    unitId: key.unitId,
  };
}

const OptionIdSchema = v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)));

const StoredRequestKeySchema = v.object({
  environment: v.picklist(["live", "sandbox"]),
  product: v.picklist(PRODUCTS),
  code: v.pipe(v.string(), v.minLength(1)),
  currencyId: OptionIdSchema,
  unitId: OptionIdSchema,
});

/** A stored key read back, or undefined when the record is not one (it is then skipped). */
export function readStoredRequestKey(value: unknown): RequestKey | undefined {
  const parsed = v.safeParse(StoredRequestKeySchema, value);
  return parsed.success ? requestKeyOf(parsed.output) : undefined;
}
