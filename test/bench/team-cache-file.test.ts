import { catalogOnlyCache } from "../../bench/team-cache-file";

const CATALOG = { fetchedAt: 1, series: [{ code: "E-1" }] };
const SERIES = { key: "live|energy_price|E-1|default|default", finals: { months: "[]", values: [] } };
const KEYS = [{ product: "energy_price", code: "E-1" }];

function file(entries: Record<string, unknown>, version: unknown = 1): string {
  return JSON.stringify({ version, entries });
}

describe("catalogOnlyCache: a saved cache file without its series", () => {
  test.each<[string, Record<string, unknown>, string[], number, number]>([
    [
      "series entries go; catalogs, the workbook's keys and settings stay",
      {
        "pcd:catalog:live:energy_price": CATALOG,
        "pcd:catalog:live:commodity_price": CATALOG,
        "pcd:data:live|energy_price|E-1|default|default": SERIES,
        "pcd:data:live|energy_price|E-1|USD|default": SERIES,
        "pcd:workbook-keys": KEYS,
        "pcd:settings": { timeoutMs: 1000 },
      },
      [
        "pcd:catalog:live:energy_price",
        "pcd:catalog:live:commodity_price",
        "pcd:workbook-keys",
        "pcd:settings",
      ],
      2,
      2,
    ],
    [
      "only a key that starts with the series prefix is a series",
      { "pcd:catalog:live:energy_price": CATALOG, "pcd:data:x": SERIES, "pcd:database": 1 },
      ["pcd:catalog:live:energy_price", "pcd:database"],
      1,
      1,
    ],
  ])("%s", (_name, entries, kept, removedSeries, catalogs) => {
    const result = catalogOnlyCache(file(entries), "member.cache.json");
    const written = JSON.parse(result.text) as { version: number; entries: Record<string, unknown> };
    expect(written.version).toBe(1);
    expect(Object.keys(written.entries)).toEqual(kept);
    expect(written.entries["pcd:catalog:live:energy_price"]).toEqual(CATALOG);
    expect(result.removedSeries).toBe(removedSeries);
    expect(result.catalogs).toBe(catalogs);
  });

  test.each<[string, string, string]>([
    ["not a cache file", JSON.stringify({ entries: {} }), "a.json is not a runner's cache file"],
    ["another version", file({ "pcd:data:x": SERIES }, 2), "a.json is not a runner's cache file"],
    [
      "no catalog: the runner would read Series Info",
      file({ "pcd:data:x": SERIES }),
      "a.json holds no catalog",
    ],
    [
      "no series: nothing would come from the gateway",
      file({ "pcd:catalog:live:energy_price": CATALOG }),
      "a.json holds no series",
    ],
  ])("refuses a file with %s", (_name, text, message) => {
    expect(() => catalogOnlyCache(text, "a.json")).toThrow(message);
  });
});
