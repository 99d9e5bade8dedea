import {
  findRequestKey,
  makeRequestKey,
  readStoredRequestKey,
  requestKeyOf,
  toStoredRequestKey,
} from "../../src/core/request-key";
import { seriesInfo } from "./support/series-fixtures";

const gas = seriesInfo({ code: "68520-8-1", defaultCurrency: "EUR", defaultUnit: "MWh" });

describe("makeRequestKey", () => {
  test.each([
    ["no options", "live", null, null, "live|energy_price|68520-8-1|default|default", null, null],
    [
      "the default currency spelled out",
      "live",
      3,
      null,
      "live|energy_price|68520-8-1|default|default",
      null,
      null,
    ],
    [
      "the default unit spelled out",
      "live",
      null,
      7,
      "live|energy_price|68520-8-1|default|default",
      null,
      null,
    ],
    ["both defaults spelled out", "live", 3, 7, "live|energy_price|68520-8-1|default|default", null, null],
    ["another currency", "live", 1, null, "live|energy_price|68520-8-1|1|default", 1, null],
    ["another unit", "live", null, 4, "live|energy_price|68520-8-1|default|4", null, 4],
    ["other currency and unit", "live", 9, 31, "live|energy_price|68520-8-1|9|31", 9, 31],
    ["the sandbox", "sandbox", null, null, "sandbox|energy_price|68520-8-1|default|default", null, null],
  ] as const)("%s", (_case, environment, currencyId, unitId, id, keptCurrency, keptUnit) => {
    const key = makeRequestKey(environment, gas, currencyId, unitId);
    expect(key).toEqual({
      id,
      environment,
      product: "energy_price",
      code: "68520-8-1",
      currencyId: keptCurrency,
      unitId: keptUnit,
    });
  });

  test("keeps leading zeros and two-digit groups of codes", () => {
    const info = seriesInfo({ code: "0912-5-12", product: "commodity_price" });
    expect(makeRequestKey("live", info, null, null).id).toBe(
      "live|commodity_price|0912-5-12|default|default",
    );
  });

  test("a series without a default currency keeps every ID", () => {
    const info = seriesInfo({ code: "1-2-3", defaultCurrency: null, defaultUnit: null });
    expect(makeRequestKey("live", info, 3, 7)).toMatchObject({
      id: "live|energy_price|1-2-3|3|7",
      currencyId: 3,
      unitId: 7,
    });
  });

  test("one object per key: the default spelled out and left out are the same key", () => {
    const omitted = makeRequestKey("live", gas, null, null);
    expect(makeRequestKey("live", gas, 3, 7)).toBe(omitted);
    expect(Object.isFrozen(omitted)).toBe(true);
  });

  test("a record asked again finds its key without reading its defaults again", () => {
    let reads = 0;
    const record = { ...gas };
    Object.defineProperty(record, "defaultCurrency", {
      get: () => {
        reads += 1;
        return "EUR";
      },
    });
    const first = makeRequestKey("live", record, 5, null);
    const readsForFirst = reads;
    expect(readsForFirst).toBeGreaterThan(0);
    const again = makeRequestKey("live", record, 5, null);
    expect(again).toBe(first);
    expect(reads).toBe(readsForFirst);
    // A refreshed catalog's record of the same series, other options, the other environment.
    expect(makeRequestKey("live", { ...gas }, 5, null)).toBe(first);
    expect(makeRequestKey("sandbox", record, 5, null)).not.toBe(first);
    expect(makeRequestKey("live", record, 6, null)).not.toBe(first);
    expect(makeRequestKey("live", record, 5, 2)).not.toBe(first);
  });
});

describe("a cell's id leads back to its key by lookup", () => {
  test("findRequestKey finds a key made in this process", () => {
    const key = makeRequestKey(
      "sandbox",
      seriesInfo({ code: "912-5-2", product: "industry_economics" }),
      9,
      null,
    );
    expect(findRequestKey(key.id)).toBe(key);
  });

  test("an id nobody made is not read as text", () => {
    expect(findRequestKey("live|energy_price|424242-1-1|default|default")).toBeUndefined();
  });
});

describe("stored keys", () => {
  test("round-trip through their parts", () => {
    const key = makeRequestKey("live", gas, 1, 4);
    const stored = JSON.parse(JSON.stringify(toStoredRequestKey(key))) as unknown;
    expect(stored).not.toHaveProperty("id");
    expect(readStoredRequestKey(stored)).toBe(key);
  });

  test.each([
    ["a plain id (an earlier format)", "live|energy_price|1-2-3|default|default"],
    [
      "an id with its need (an earlier format)",
      { key: "live|energy_price|1-2-3|default|default", need: null },
    ],
    [
      "an unknown environment",
      { environment: "prod", product: "energy_price", code: "1-2-3", currencyId: null, unitId: null },
    ],
    [
      "an unknown product",
      { environment: "live", product: "gas", code: "1-2-3", currencyId: null, unitId: null },
    ],
    [
      "an empty code",
      { environment: "live", product: "energy_price", code: "", currencyId: null, unitId: null },
    ],
    [
      "a currency that is not an ID",
      { environment: "live", product: "energy_price", code: "1-2-3", currencyId: "EUR", unitId: null },
    ],
    [
      "a negative unit",
      { environment: "live", product: "energy_price", code: "1-2-3", currencyId: null, unitId: -1 },
    ],
    ["nothing", null],
  ])("skip %s", (_case, value) => {
    expect(readStoredRequestKey(value)).toBeUndefined();
  });

  test("requestKeyOf gives the key of normalised parts", () => {
    const parts = {
      environment: "live",
      product: "commodity_price",
      code: "5-5-5",
      currencyId: null,
      unitId: 2,
    } as const;
    expect(requestKeyOf(parts).id).toBe("live|commodity_price|5-5-5|default|2");
  });
});
