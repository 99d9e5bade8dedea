// IndexedDB failing or hanging (seen in some Office hosts), under the 500-formula workbook:
// the engine runs on createResilientStorage over a broken store, every cell still settles
// with the right number, and cacheInfo() says that (and why) the cache lives in memory.
import type { KeyValueStorage } from "../../src/core/environment";
import { createResilientStorage, MemoryStorage } from "../../src/core/storage";
import type { FormulaResult } from "../../src/headless";
import { HeldTimers } from "../support/held-timers";
import { FaultLab } from "./support/fault-lab";
import { recalc, results } from "./support/scenario-run";
import { buildWorkbook, type Workbook } from "./support/workbook";

const START = "2026-11-10T18:00:00Z";

jest.setTimeout(60_000);

let lab: FaultLab;
let book: Workbook;
let oracle: FormulaResult[];

beforeAll(async () => {
  lab = await FaultLab.start(START);
  const engine = await lab.signedInEngine();
  book = buildWorkbook({
    energy: await engine.catalog("energy_price"),
    commodity: await engine.catalog("commodity_price"),
    industry: await engine.catalog("industry_economics"),
  });
  oracle = results(await recalc(engine, formulas()));
});

afterAll(async () => {
  await lab?.close();
});

function formulas(): string[] {
  return book.cells.map((cell) => cell.formula);
}

/** A store whose every operation rejects, like an IndexedDB the host refuses to open. */
class FailingStorage implements KeyValueStorage {
  readonly persistent = true;
  constructor(private readonly error: Error) {}
  get<T>(): Promise<T | undefined> {
    return Promise.reject(this.error);
  }
  set(): Promise<void> {
    return Promise.reject(this.error);
  }
  delete(): Promise<void> {
    return Promise.reject(this.error);
  }
  keys(): Promise<string[]> {
    return Promise.reject(this.error);
  }
}

/** A store that never answers (a blocked IndexedDB upgrade). */
class HangingStorage implements KeyValueStorage {
  readonly persistent = true;
  get<T>(): Promise<T | undefined> {
    return new Promise<T | undefined>(() => undefined);
  }
  set(): Promise<void> {
    return new Promise<void>(() => undefined);
  }
  delete(): Promise<void> {
    return new Promise<void>(() => undefined);
  }
  keys(): Promise<string[]> {
    return new Promise<string[]>(() => undefined);
  }
}

/** Reads work, writes fail once the disk is full (after `room` writes). */
class FullDiskStorage implements KeyValueStorage {
  readonly persistent = true;
  private readonly memory = new MemoryStorage();
  constructor(private room: number) {}
  get<T>(key: string): Promise<T | undefined> {
    return this.memory.get<T>(key);
  }
  async set(key: string, value: unknown): Promise<void> {
    if (this.room <= 0) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    this.room -= 1;
    return this.memory.set(key, value);
  }
  delete(key: string): Promise<void> {
    return this.memory.delete(key);
  }
  keys(): Promise<string[]> {
    return this.memory.keys();
  }
}

// The watchdog that notices a hanging store: real timers where the store never answers (its
// expiry is certain), held ones where the store answers, so that a slow machine cannot turn
// a working write into a "hang" and change the reason the pane gives.
test.each<[string, () => KeyValueStorage, RegExp, "real" | "held"]>([
  [
    "IndexedDB fails on every operation",
    () => new FailingStorage(new Error("InvalidStateError: IndexedDB is not available in this host")),
    /IndexedDB is not available/,
    "held",
  ],
  ["IndexedDB hangs", () => new HangingStorage(), /no answer within 0\.05 s/, "real"],
  [
    "the disk fills up during the recalculation",
    () => new FullDiskStorage(3),
    /quota has been exceeded/,
    "held",
  ],
])(
  "%s: every cell settles with the right value; the pane is told why the cache is in memory",
  async (_, primary, reason, watchdog) => {
    const storage = createResilientStorage(primary(), {
      timeoutMs: 50,
      scheduler: watchdog === "held" ? new HeldTimers() : undefined,
    });
    const engine = await lab.signedInEngine(storage);
    const report = await recalc(engine, formulas());
    expect(report.settled).toBe(true);
    const cells = results(report);
    const different = book.cells.flatMap((cell, index) =>
      cell.source.kind === "limits" || JSON.stringify(cells[index]) === JSON.stringify(oracle[index])
        ? []
        : [cell.formula],
    );
    expect(different).toEqual([]);
    const info = await engine.cacheInfo();
    expect(info.persistent).toBe(false);
    expect(info.fallbackReason).toMatch(reason);
    expect(info.fallbackReason).toMatch(/IndexedDB/);
    // The session keeps its data in memory: a second recalculation costs nothing.
    await lab.admin("reset", {});
    const again = await recalc(engine, formulas());
    expect(again.passes[0]?.dataRequests).toBe(0);
    expect(JSON.stringify(results(again))).toBe(JSON.stringify(cells));
  },
);
