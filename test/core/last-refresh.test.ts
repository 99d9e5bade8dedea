import type { Logger } from "../../src/core/environment";
import {
  LAST_REFRESH_STORAGE_KEY,
  LastRefresh,
  RELEASES_SEEN_STORAGE_KEY,
} from "../../src/core/last-refresh";
import { MemoryStorage } from "../../src/core/storage";

const RELEASE_OUT = Date.parse("2026-11-04T06:00:00Z");
const BEFORE = RELEASE_OUT - 86_400_000;
const AFTER = RELEASE_OUT + 3_600_000;
const NOW = AFTER + 7 * 86_400_000;

function lastRefresh(options: {
  storage?: MemoryStorage;
  /** The workbook's own storage; the computer's (storage) when absent. */
  workbookStorage?: MemoryStorage;
  /** When each of the workbook's keys was fetched (undefined: not cached). */
  fetchedAt?: ReadonlyArray<number | undefined>;
  log?: Logger;
}): LastRefresh {
  const fetchedAt = options.fetchedAt ?? [];
  const storage = options.storage ?? new MemoryStorage();
  return new LastRefresh({
    storage,
    workbookStorage: options.workbookStorage ?? storage,
    workbookKeys: {
      list: () =>
        fetchedAt.map((_, i) => ({ id: `key-${i}`, environment: "live", product: "energy_price" })) as never,
    },
    sync: {
      cached: (id: string) => {
        const at = fetchedAt[Number(id.slice("key-".length))];
        return at === undefined ? undefined : ({ fetchedAt: at } as never);
      },
    },
    latestReleaseOut: () => RELEASE_OUT,
    now: () => NOW,
    ...(options.log ? { log: options.log } : {}),
  });
}

describe("LastRefresh.due: a release came out since the workbook's data was fetched", () => {
  test.each([
    ["never refreshed, nothing cached", null, [], false],
    ["never refreshed, the oldest cached series predates the release", null, [AFTER, BEFORE], true],
    ["never refreshed, every cached series is newer than the release", null, [AFTER, AFTER], false],
    ["never refreshed, a key not cached yet does not count", null, [undefined, AFTER], false],
    ["refreshed before the release", BEFORE, [AFTER], true],
    ["refreshed after the release (old cached series do not count then)", AFTER, [BEFORE], false],
  ])("%s", async (_name, refreshedAt, fetchedAt, due) => {
    const storage = new MemoryStorage();
    if (refreshedAt !== null) await storage.set(LAST_REFRESH_STORAGE_KEY, refreshedAt);
    const last = lastRefresh({ storage, fetchedAt });
    await last.load();
    expect(last.at()).toBe(refreshedAt);
    expect(last.due()).toBe(due);
  });
});

describe("LastRefresh.due: a release the calendar does not know of, once a catalog read showed it", () => {
  const LATER = AFTER + 86_400_000;
  test.each<[string, "live" | "sandbox", "energy_price" | "commodity_price", number, boolean]>([
    ["the workbook's product, after the last refresh", "live", "energy_price", LATER, true],
    ["the workbook's product, before the last refresh", "live", "energy_price", AFTER - 1, false],
    ["a product the workbook does not use", "live", "commodity_price", LATER, false],
    ["the workbook's product in the other environment", "sandbox", "energy_price", LATER, false],
  ])("%s", async (_name, environment, product, seenAt, due) => {
    const storage = new MemoryStorage();
    await storage.set(LAST_REFRESH_STORAGE_KEY, AFTER);
    const last = lastRefresh({ storage, fetchedAt: [AFTER] });
    await last.load();
    expect(last.due()).toBe(false);
    last.releaseSeen(environment, product, seenAt);
    expect(last.due()).toBe(due);
  });
});

test("a release seen is remembered by the next session; what is not a time is left out", async () => {
  const storage = new MemoryStorage();
  await storage.set(LAST_REFRESH_STORAGE_KEY, AFTER);
  const first = lastRefresh({ storage, fetchedAt: [AFTER] });
  await first.load();
  first.releaseSeen("live", "energy_price", AFTER + 60_000);
  expect(first.due()).toBe(true);
  await new Promise((resolve) => setImmediate(resolve));
  const next = lastRefresh({ storage, fetchedAt: [AFTER] });
  await next.load();
  expect(next.due()).toBe(true);

  await storage.set(RELEASES_SEEN_STORAGE_KEY, { "live|energy_price": "tomorrow" });
  const planted = lastRefresh({ storage, fetchedAt: [AFTER] });
  await planted.load();
  expect(planted.due()).toBe(false);
});

test("each workbook has its own last refresh; a release seen counts for every workbook", async () => {
  const computer = new MemoryStorage();
  const [bookA, bookB] = [new MemoryStorage(), new MemoryStorage()];
  const a = lastRefresh({ storage: computer, workbookStorage: bookA, fetchedAt: [AFTER] });
  await a.load();
  await a.record(AFTER);
  // Workbook B, fetched before the release and never refreshed, is still due for it.
  const b = lastRefresh({ storage: computer, workbookStorage: bookB, fetchedAt: [BEFORE] });
  await b.load();
  expect(b.at()).toBeNull();
  expect(b.due()).toBe(true);
  // A release a catalog read showed (off the calendar) is news for A too.
  a.releaseSeen("live", "energy_price", AFTER + 60_000);
  await new Promise((resolve) => setImmediate(resolve));
  const aAgain = lastRefresh({ storage: computer, workbookStorage: bookA, fetchedAt: [AFTER] });
  await aAgain.load();
  expect(aAgain.at()).toBe(AFTER);
  expect(aAgain.due()).toBe(true);
  expect(await computer.get(LAST_REFRESH_STORAGE_KEY)).toBeUndefined();
});

test.each<[string, unknown]>([
  ["not a time", "yesterday"],
  ["a time later than now (a workbook's file could say so: no release would ever be offered)", NOW + 1],
  ["not a finite number", Number.POSITIVE_INFINITY],
])("a stored value that is %s reads as never refreshed", async (_case, stored) => {
  const storage = new MemoryStorage();
  await storage.set(LAST_REFRESH_STORAGE_KEY, stored);
  const last = lastRefresh({ storage, fetchedAt: [BEFORE] });
  await last.load();
  expect(last.at()).toBeNull();
  expect(last.due()).toBe(true);
});

test("a recorded refresh is kept in storage for the next session", async () => {
  const storage = new MemoryStorage();
  await lastRefresh({ storage }).record(AFTER);
  const next = lastRefresh({ storage });
  await next.load();
  expect(next.at()).toBe(AFTER);
});

test("a refresh time that cannot be saved still counts this session, and the failure is logged", async () => {
  const storage = new MemoryStorage();
  storage.set = () => Promise.reject(new Error("quota exceeded"));
  const logged: string[] = [];
  const last = lastRefresh({
    storage,
    fetchedAt: [BEFORE],
    log: (level, text) => logged.push(`${level}: ${text}`),
  });
  await last.record(AFTER);
  expect(last.at()).toBe(AFTER);
  expect(last.due()).toBe(false);
  expect(logged).toEqual(["warn: Could not save the refresh time: quota exceeded"]);
});
