import type { KeyValueStorage } from "../../src/core/environment";
import { requestKeyOf, toStoredRequestKey, type RequestKey } from "../../src/core/request-key";
import { MemoryStorage } from "../../src/core/storage";
import { LATEST_ONLY, WHOLE_SERIES, type SeriesNeed } from "../../src/core/series-need";
import { until } from "../support/until";
import {
  MAX_STORED_KEYS,
  SAVE_DELAY_MS,
  SAVE_MAX_DELAY_MS,
  WORKBOOK_KEYS_STORAGE_KEY,
  WorkbookKeys,
} from "../../src/core/workbook-keys";

/** The key of an energy price series in its defaults. */
const key = (code: string): RequestKey =>
  requestKeyOf({ environment: "live", product: "energy_price", code, currencyId: null, unitId: null });
const ids = (keys: readonly RequestKey[]): string[] => keys.map(({ id }) => id);

function countingStorage(): { storage: KeyValueStorage; writes: () => number } {
  const inner = new MemoryStorage();
  let writes = 0;
  return {
    storage: {
      persistent: false,
      get: (key) => inner.get(key),
      set: (key, value) => {
        writes++;
        return inner.set(key, value);
      },
      delete: (key) => inner.delete(key),
      keys: () => inner.keys(),
    },
    writes: () => writes,
  };
}

describe("WorkbookKeys needs", () => {
  const KEY = key("1-1-1");
  const OLD = { from: "2010-01", to: "2010-12" };

  test("a key's need is the union of its holders', and narrows when a holder lets go", async () => {
    const keys = new WorkbookKeys(new MemoryStorage(), undefined, { graceMs: 5 });
    const latest = keys.retain(KEY, LATEST_ONLY);
    expect(keys.need(KEY.id)).toEqual(LATEST_ONLY);
    const old = keys.retain(KEY, OLD);
    expect(keys.need(KEY.id)).toEqual({ from: "2010-01", to: null });
    old();
    expect(keys.need(KEY.id)).toEqual(LATEST_ONLY);
    latest();
  });

  test("keys travel with the workbook by their parts, with their needs", async () => {
    const storage = new MemoryStorage();
    const keys = new WorkbookKeys(storage);
    keys.add(KEY, OLD);
    keys.add(requestKeyOf({ ...KEY, currencyId: 1 }), LATEST_ONLY);
    await keys.flushed();
    expect(await storage.get(WORKBOOK_KEYS_STORAGE_KEY)).toEqual([
      {
        environment: "live",
        product: "energy_price",
        code: "1-1-1",
        currencyId: null,
        unitId: null,
        need: OLD,
      },
      {
        environment: "live",
        product: "energy_price",
        code: "1-1-1",
        currencyId: 1,
        unitId: null,
        need: LATEST_ONLY,
      },
    ]);
    const reopened = new WorkbookKeys(storage);
    await reopened.load();
    expect(reopened.list()).toEqual([KEY, requestKeyOf({ ...KEY, currencyId: 1 })]);
    expect(reopened.need(KEY.id)).toEqual(OLD);
    // A cell evaluating now says what it reads: the saved need gives way to it.
    const release = reopened.retain(KEY, LATEST_ONLY);
    expect(reopened.need(KEY.id)).toEqual(LATEST_ONLY);
    release();
  });

  test("a stored key without a readable need is the whole series", async () => {
    const storage = new MemoryStorage();
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, [
      { environment: "live", product: "energy_price", code: "1-1-1", currencyId: null, unitId: null },
    ]);
    const keys = new WorkbookKeys(storage);
    await keys.load();
    expect(keys.need(KEY.id)).toEqual(WHOLE_SERIES);
  });

  test("lists of an earlier format (key ids as text) are not parsed: skipped, and said once", async () => {
    const storage = new MemoryStorage();
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, [
      "live|energy_price|1-1-1|default|default",
      { key: "live|energy_price|2-2-2|default|default", need: OLD },
      {
        environment: "live",
        product: "energy_price",
        code: "3-3-3",
        currencyId: null,
        unitId: null,
        need: OLD,
      },
    ]);
    const logged: string[] = [];
    const keys = new WorkbookKeys(storage, (_level, message) => logged.push(message));
    await keys.load();
    expect(ids(keys.list())).toEqual(["live|energy_price|3-3-3|default|default"]);
    expect(logged).toEqual([
      "2 saved workbook key(s) of an earlier format were not read; their cells add them again as they evaluate.",
    ]);
  });
});

describe("WorkbookKeys", () => {
  test("the waits and the grace are measured on the clock bound when the list was made, not on a Date.now swapped later", async () => {
    const keys = new WorkbookKeys(new MemoryStorage(), undefined, { graceMs: 0 });
    // A timer that fires after its test file ended finds the file's Date removed: the keys must
    // not reach for it. The swapped Date.now throws, so a read fails the test where it happens.
    const swapped = jest.spyOn(Date, "now").mockImplementation(() => {
      throw new Error("Date.now was read");
    });
    try {
      keys.add(key("1-1-1"));
      await keys.flushed();
      const release = keys.retain(key("2-1-1"), LATEST_ONLY);
      release();
      // No grace: the sweep drops the key no cell holds, reading the time as it does.
      await until(
        () => ids(keys.list()),
        (listed) => listed.length === 1,
        "the sweep",
        { timeoutMs: 5_000 },
      );
      await keys.flushed();
      expect(swapped).not.toHaveBeenCalled();
    } finally {
      swapped.mockRestore();
    }
    expect(ids(keys.list())).toEqual([key("1-1-1").id]);
  });

  test("a burst of new keys is saved once, and a reopened workbook reads them back", async () => {
    const { storage, writes } = countingStorage();
    const keys = new WorkbookKeys(storage);
    for (let i = 0; i < 500; i++) keys.add(key(`${i}-1-1`));
    keys.add(key("0-1-1"));
    await keys.flushed();
    expect(writes()).toBe(1);
    const reopened = new WorkbookKeys(storage);
    await reopened.load();
    expect(reopened.list()).toHaveLength(500);
  });

  test("keys added over several turns within the save delay are written once, when the delay ends", async () => {
    jest.useFakeTimers();
    try {
      const { storage, writes } = countingStorage();
      const keys = new WorkbookKeys(storage);
      for (let i = 0; i < 50; i++) {
        keys.add(key(`${i}-1-1`));
        await Promise.resolve();
        jest.advanceTimersByTime(SAVE_DELAY_MS / 100);
      }
      expect(writes()).toBe(0);
      jest.advanceTimersByTime(SAVE_DELAY_MS);
      await keys.flushed();
      expect(writes()).toBe(1);
      expect(await storage.get(WORKBOOK_KEYS_STORAGE_KEY)).toHaveLength(50);
    } finally {
      jest.useRealTimers();
    }
  });

  test("while keys keep coming, each save waits twice as long as the last, up to the longest wait; a quiet moment resets it", async () => {
    jest.useFakeTimers();
    try {
      const { storage, writes } = countingStorage();
      const keys = new WorkbookKeys(storage);
      // A key every 100 ms for 20 s (a long cold recalculation): the writes' times.
      const writtenAt: number[] = [];
      for (let tick = 0; tick < 200; tick++) {
        keys.add(key(`${tick}-1-1`));
        const before = writes();
        await jest.advanceTimersByTimeAsync(100);
        if (writes() > before) writtenAt.push((tick + 1) * 100);
      }
      const waits = writtenAt.map((at, i) => at - (writtenAt[i - 1] ?? 0));
      expect(waits.slice(0, 4)).toEqual([
        SAVE_DELAY_MS,
        2 * SAVE_DELAY_MS,
        4 * SAVE_DELAY_MS,
        8 * SAVE_DELAY_MS,
      ]);
      expect(Math.max(...waits)).toBeLessThanOrEqual(SAVE_MAX_DELAY_MS + 100);
      // Nothing is lost: the last keys are written when the wait ends.
      await jest.advanceTimersByTimeAsync(SAVE_MAX_DELAY_MS);
      expect(await storage.get(WORKBOOK_KEYS_STORAGE_KEY)).toHaveLength(200);
      // After a quiet moment, a new key is saved after the shortest wait again.
      await jest.advanceTimersByTimeAsync(SAVE_MAX_DELAY_MS * 2);
      const before = writes();
      keys.add(key("999-1-1"));
      await jest.advanceTimersByTimeAsync(SAVE_DELAY_MS);
      expect(writes()).toBe(before + 1);
    } finally {
      jest.useRealTimers();
    }
  });

  test("a known key causes no write", async () => {
    const { storage, writes } = countingStorage();
    const keys = new WorkbookKeys(storage);
    keys.add(key("9-9-9"));
    await keys.flushed();
    keys.add(key("9-9-9"));
    await keys.flushed();
    expect(writes()).toBe(1);
  });

  // A recalculation cancels every cell (its keys' needs narrow) and invokes it again (they
  // widen back): a save of the same list again would write nothing new.
  test.each([
    {
      name: "every cell let go of and taken back (a recalculation)",
      change: (keys: WorkbookKeys, held: Array<() => void>) => {
        held.forEach((release) => release());
        keys.retain(key("1-1-1"), LATEST_ONLY);
        keys.retain(key("1-1-1"), { from: "2010-01", to: "2010-12" });
        keys.retain(key("2-2-2"), LATEST_ONLY);
      },
      written: 1,
    },
    {
      name: "a need that widened",
      change: (keys: WorkbookKeys) => keys.retain(key("2-2-2"), WHOLE_SERIES),
      written: 2,
    },
    {
      name: "a need that narrowed",
      change: (_keys: WorkbookKeys, held: Array<() => void>) => held[1]?.(),
      written: 2,
    },
    { name: "a new key", change: (keys: WorkbookKeys) => keys.add(key("3-3-3")), written: 2 },
  ])("a save writes only a list that differs from the one stored: $name", async ({ change, written }) => {
    const { storage, writes } = countingStorage();
    const keys = new WorkbookKeys(storage);
    const held = [
      keys.retain(key("1-1-1"), LATEST_ONLY),
      keys.retain(key("1-1-1"), { from: "2010-01", to: "2010-12" }),
      keys.retain(key("2-2-2"), LATEST_ONLY),
    ];
    await keys.flushed();
    expect(writes()).toBe(1);
    change(keys, held);
    await keys.flushed();
    expect(writes()).toBe(written);
    // Whatever was skipped or written, storage holds the list as it is in memory.
    const reopened = new WorkbookKeys(storage);
    await reopened.load();
    expect(reopened.list().map(({ id }) => [id, reopened.need(id)])).toEqual(
      keys.list().map(({ id }) => [id, keys.need(id)]),
    );
  });

  test("a list read back is not written again unchanged; one with unreadable items is", async () => {
    const { storage, writes } = countingStorage();
    const first = new WorkbookKeys(storage);
    first.add(key("1-1-1"), LATEST_ONLY);
    await first.flushed();
    const reopened = new WorkbookKeys(storage);
    await reopened.load();
    reopened.retain(key("1-1-1"), LATEST_ONLY);
    await reopened.flushed();
    expect(writes()).toBe(1);

    const stored = await storage.get<unknown[]>(WORKBOOK_KEYS_STORAGE_KEY);
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, [...(stored ?? []), "live|energy_price|9-9-9|-|-"]);
    const mixed = new WorkbookKeys(storage);
    await mixed.load();
    // A need that widens and narrows back: the list is what was read, yet it is written.
    mixed.retain(key("1-1-1"), LATEST_ONLY);
    mixed.retain(key("1-1-1"), WHOLE_SERIES)();
    expect(mixed.need(key("1-1-1").id)).toEqual(LATEST_ONLY);
    await mixed.flushed();
    expect(writes()).toBe(3);
    expect(await storage.get(WORKBOOK_KEYS_STORAGE_KEY)).toHaveLength(1);
  });

  test("ignores a stored value that is not a list of keys", async () => {
    const storage = new MemoryStorage();
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, { not: "a list" });
    const keys = new WorkbookKeys(storage);
    await keys.load();
    expect(keys.list()).toEqual([]);
  });
});

// A holder that lets go may narrow its key's union; it is computed again once the turn's
// cells have come and gone (or when read), not at each release: a recalculation lets go of
// every cell, and a key shown by k cells cost k squared steps.
describe("WorkbookKeys unions after holders let go", () => {
  const KEY = key("1-1-1");
  const OLD = { from: "2010-01", to: "2010-12" } as const;

  test.each([
    {
      name: "the widest holder goes",
      holders: [LATEST_ONLY, OLD, WHOLE_SERIES],
      go: [2],
      need: { from: "2010-01", to: null },
    },
    { name: "a narrower holder goes", holders: [LATEST_ONLY, WHOLE_SERIES], go: [0], need: WHOLE_SERIES },
    {
      name: "all but the latest-only holder go",
      holders: [WHOLE_SERIES, OLD, LATEST_ONLY],
      go: [0, 1],
      need: LATEST_ONLY,
    },
    // Cells that go together (a recalculation, the runner's end) leave what they needed together.
    {
      name: "every holder goes, the widest first",
      holders: [WHOLE_SERIES, LATEST_ONLY],
      go: [0, 1],
      need: WHOLE_SERIES,
    },
    {
      name: "every holder goes, a one-month table last",
      holders: [WHOLE_SERIES, { from: "2013-10", to: "2013-10" }],
      go: [0, 1],
      need: WHOLE_SERIES,
    },
    {
      name: "every holder goes, a narrow range last",
      holders: [LATEST_ONLY, { from: "2019-01", to: "2019-06" }, OLD],
      go: [2, 0, 1],
      need: { from: "2010-01", to: null },
    },
  ])("$name: read at once, and saved after the turn", async ({ holders, go, need }) => {
    const storage = new MemoryStorage();
    const keys = new WorkbookKeys(storage);
    const releases = holders.map((held) => keys.retain(KEY, held));
    for (const index of go) releases[index]?.();
    expect(keys.need(KEY.id)).toEqual(need);

    const later = new WorkbookKeys(storage);
    const laterReleases = holders.map((held) => later.retain(KEY, held));
    for (const index of go) laterReleases[index]?.();
    await Promise.resolve();
    await later.flushed();
    const reopened = new WorkbookKeys(storage);
    await reopened.load();
    expect(reopened.need(KEY.id)).toEqual(need);
  });

  test("holders that go in turns of their own narrow the need at each turn, down to the last one's", async () => {
    const keys = new WorkbookKeys(new MemoryStorage());
    const releases = [WHOLE_SERIES, OLD, LATEST_ONLY].map((held) => keys.retain(KEY, held));
    const needs: unknown[] = [];
    for (const release of releases) {
      release();
      await Promise.resolve();
      needs.push(keys.need(KEY.id));
    }
    expect(needs).toEqual([{ from: "2010-01", to: null }, LATEST_ONLY, LATEST_ONLY]);
  });

  test("a holder that comes while the union is stale is part of what the key keeps when all go", async () => {
    const keys = new WorkbookKeys(new MemoryStorage());
    const latest = keys.retain(KEY, LATEST_ONLY);
    const firstHalf2019 = keys.retain(KEY, { from: "2019-01", to: "2019-06" });
    firstHalf2019();
    const old = keys.retain(KEY, OLD);
    latest();
    old();
    expect(keys.need(KEY.id)).toEqual({ from: "2010-01", to: null });
  });

  test("a need narrowed by a holder letting go is saved after the save delay, with no flush", async () => {
    jest.useFakeTimers();
    try {
      const storage = new MemoryStorage();
      const keys = new WorkbookKeys(storage);
      keys.retain(KEY, LATEST_ONLY);
      const wide = keys.retain(KEY, WHOLE_SERIES);
      await jest.advanceTimersByTimeAsync(SAVE_MAX_DELAY_MS);
      const stored = (): Promise<unknown> => storage.get(WORKBOOK_KEYS_STORAGE_KEY);
      expect(await stored()).toEqual([expect.objectContaining({ need: WHOLE_SERIES })]);
      wide();
      await jest.advanceTimersByTimeAsync(SAVE_MAX_DELAY_MS);
      expect(await stored()).toEqual([expect.objectContaining({ need: LATEST_ONLY })]);
    } finally {
      jest.useRealTimers();
    }
  });

  test("a recalculation of a key's cells reads their needs a number of times in proportion to them", async () => {
    // Every read of a need's months is counted: computing the union reads them, so a union
    // recomputed from every holder left at each release reads them 300 * 299 / 2 times over.
    let reads = 0;
    const counted = (need: SeriesNeed): SeriesNeed => ({
      get from() {
        reads += 1;
        return need.from;
      },
      get to() {
        reads += 1;
        return need.to;
      },
    });
    const keys = new WorkbookKeys(new MemoryStorage());
    const needs = Array.from({ length: 300 }, (_, index) =>
      counted(index % 3 === 0 ? LATEST_ONLY : { from: `20${String(10 + (index % 10))}-01`, to: null }),
    );
    const first = needs.map((held) => keys.retain(KEY, held));
    reads = 0;
    // Excel cancels every cell, then invokes it again.
    first.forEach((release) => release());
    needs.map((held) => keys.retain(KEY, held));
    await Promise.resolve();
    const need = keys.need(KEY.id);
    expect({ from: need?.from, to: need?.to }).toEqual({ from: "2010-01", to: null });
    expect(reads).toBeLessThanOrEqual(30 * needs.length);
  });
});

describe("WorkbookKeys held by cells", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test.each([
    // [case, steps, expected keys after the grace]
    ["a deleted formula's key leaves the list after the grace", ["retain a", "release a"], []],
    ["a formula re-invoked within the grace keeps its key", ["retain a", "release a", "retain a"], ["a"]],
    ["a key held by two cells stays while one remains", ["retain a", "retain a", "release a"], ["a"]],
    ["a key asked for outside any cell stays", ["add b"], ["b"]],
  ])("%s", async (_case, steps, expected) => {
    const storage = new MemoryStorage();
    const keys = new WorkbookKeys(storage, undefined, { graceMs: 1_000 });
    const releases: Array<() => void> = [];
    for (const step of steps) {
      const [verb, code] = step.split(" ") as [string, string];
      if (verb === "retain") releases.push(keys.retain(key(code)));
      else if (verb === "release") releases.shift()?.();
      else keys.add(key(code));
    }
    jest.advanceTimersByTime(1_000);
    await keys.flushed();
    expect(keys.list()).toEqual(expected.map(key));
    const reopened = new WorkbookKeys(storage);
    await reopened.load();
    expect(reopened.list()).toEqual(expected.map(key));
  });

  test("cells released together arm one timer; each key leaves when its own grace ends", async () => {
    const storage = new MemoryStorage();
    const keys = new WorkbookKeys(storage, undefined, { graceMs: 1_000 });
    const early = Array.from({ length: 500 }, (_, index) => keys.retain(key(`early-${index}`)));
    const late = keys.retain(key("late"));
    for (const release of early) release();
    expect(jest.getTimerCount()).toBe(2); // the sweep, and the delayed save of the keys
    jest.advanceTimersByTime(600);
    late();
    jest.advanceTimersByTime(400);
    expect(keys.list()).toEqual([key("late")]);
    jest.advanceTimersByTime(600);
    expect(keys.list()).toEqual([]);
    await keys.flushed();
    expect(await storage.get(WORKBOOK_KEYS_STORAGE_KEY)).toEqual([]);
  });

  test("releasing twice counts once", () => {
    const keys = new WorkbookKeys(new MemoryStorage(), undefined, { graceMs: 1_000 });
    const release = keys.retain(key("a"));
    keys.retain(key("a"));
    release();
    release();
    jest.advanceTimersByTime(1_000);
    expect(keys.list()).toEqual([key("a")]);
  });
});

describe("WorkbookKeys held by id", () => {
  test("a cell's id leads to the key made for it; an id nobody made is refused, said, and held by nothing", () => {
    const logged: string[] = [];
    const keys = new WorkbookKeys(new MemoryStorage(), (_level, message) => logged.push(message), {
      graceMs: 1_000,
    });
    const known = key("7-7-7");
    const release = keys.retainId(known.id, LATEST_ONLY);
    expect(keys.list()).toEqual([known]);
    expect(keys.need(known.id)).toEqual(LATEST_ONLY);
    const nothing = keys.retainId("live|energy_price|808080-1-1|default|default");
    expect(keys.list()).toEqual([known]);
    expect(logged).toEqual([
      "A cell held an unknown request key 'live|energy_price|808080-1-1|default|default'; it is not refreshed.",
    ]);
    nothing();
    release();
  });
});

describe("WorkbookKeys read from a list someone else saved", () => {
  const stored = (code: string, need: unknown) => ({ ...toStoredRequestKey(key(code)), need });

  test("a key listed twice is one key with both needs, and the list is saved again merged", async () => {
    const storage = new MemoryStorage();
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, [
      stored("1-1-1", { from: "2019-01", to: "2019-06" }),
      stored("1-1-1", { from: "2010-01", to: "2010-12" }),
    ]);
    const keys = new WorkbookKeys(storage);
    await keys.load();
    expect(ids(keys.list())).toEqual([key("1-1-1").id]);
    expect(keys.need(key("1-1-1").id)).toEqual({ from: "2010-01", to: "2019-06" });
    await keys.flushed();
    expect(await storage.get(WORKBOOK_KEYS_STORAGE_KEY)).toHaveLength(1);
  });

  test("at most MAX_STORED_KEYS keys are read, and the rest is said", async () => {
    const storage = new MemoryStorage();
    const planted = Array.from({ length: MAX_STORED_KEYS + 5 }, (_, i) => stored(`${i}-1-1`, LATEST_ONLY));
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, planted);
    const said: string[] = [];
    const keys = new WorkbookKeys(storage, (_level, message) => said.push(message));
    await keys.load();
    expect(keys.list()).toHaveLength(MAX_STORED_KEYS);
    expect(said).toEqual([
      "The workbook's saved list holds more than 20,000 series requests: the 5 beyond that were not read (their cells add them again as they evaluate).",
    ]);
  });
});
