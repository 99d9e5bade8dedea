// The request keys this workbook's cells ask for: what refresh-all refreshes and what
// its cost preview counts. Persisted (in the workbook itself where the host can: see
// EngineEnvironment.workbookStorage) so that after a reopen, refresh-all can plan before
// a single cell has evaluated.
//
// Cells hold their keys while they live (retain); when the last cell holding a key lets
// go (its formula was deleted or now asks for something else), the key leaves the list
// after a short grace, so a refresh never spends allowance on series no cell shows.
// The grace covers Excel's cancel-then-reinvoke when a formula's arguments change.
//
// Each key also keeps what its cells need (series-need.ts): the union of the needs of the
// cells holding it, or, before any cell has evaluated, the need saved with the workbook.
// Refresh-all plans with it, so a dashboard of latest values is refreshed with Series
// Values alone.
//
// Keys are stored by their parts (request-key.ts), so reading the list back parses no key
// text. Lists saved by earlier versions (plain key ids) are not read: the cells showing
// those keys put them back as they evaluate (docs/decisions.md D5).
import type { KeyValueStorage, Logger } from "./environment";
import {
  findRequestKey,
  readStoredRequestKey,
  toStoredRequestKey,
  type RequestKey,
  type StoredRequestKey,
} from "./request-key";
import { readNeed, sameNeed, unionNeed, WHOLE_SERIES, type SeriesNeed } from "./series-need";
import { ENGINE_DEFAULTS } from "./defaults";

export const WORKBOOK_KEYS_STORAGE_KEY = "pcd:workbook-keys";
/**
 * At most this many keys are read from a saved list. The list travels in the workbook file,
 * so a shared workbook can hold anything: a real workbook of 100,000 formulas holds a few
 * thousand keys, and a planted list of more must not make refresh-all plan (or spend) on it.
 */
export const MAX_STORED_KEYS = ENGINE_DEFAULTS.maxStoredKeys;
export const RELEASE_GRACE_MS = ENGINE_DEFAULTS.releaseGraceMs;
/**
 * Changes are saved at most this often. The list is written whole (thousands of keys in a
 * large workbook), and a cold recalculation adds keys for seconds: saving after every turn
 * wrote the list a hundred times per 10,000 formulas, more bytes than the series themselves.
 */
export const SAVE_DELAY_MS = ENGINE_DEFAULTS.keySaveDelayMs;
/**
 * While keys keep changing (a change within the wait of the previous save), each wait is
 * twice the last, up to this. A cold recalculation of 10,000 formulas adds keys for 13
 * seconds: a save each second would write the whole list 13 times, and those copies (with
 * storage's own) would be a tenth of everything it allocates. A quiet moment resets the wait.
 */
export const SAVE_MAX_DELAY_MS = ENGINE_DEFAULTS.keySaveMaxDelayMs;

export interface WorkbookKeysOptions {
  /** How long a key no cell holds stays in the list (default RELEASE_GRACE_MS). */
  graceMs?: number;
}

/** What the workbook stores per key: the key's parts and what its cells need. */
interface StoredKey extends StoredRequestKey {
  need: SeriesNeed;
}

/** The needs of the cells holding a key, and their union (kept as cells come). */
interface Holders {
  key: RequestKey;
  needs: SeriesNeed[];
  /**
   * The union of the needs held now and of those let go of since it was last computed from the
   * holders: when the last holder goes in the same turn as the others (a recalculation, the
   * runner's end), this is what the key's cells needed, not the last cell's need alone.
   */
  union: SeriesNeed;
}

interface KnownKey {
  key: RequestKey;
  /** The holders' union, else what was saved. */
  need: SeriesNeed;
}

export class WorkbookKeys {
  /** Every key of the workbook, by id. */
  private readonly keys = new Map<string, KnownKey>();
  /** Needs of the cells holding each key, by id. */
  private readonly holders = new Map<string, Holders>();
  /** Ids of the keys a cell held since this list was made (this session). */
  private readonly heldThisSession = new Set<string>();
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The wait of the last save, and when that save was written (epoch ms, 0 = never). */
  private saveDelayMs = SAVE_DELAY_MS;
  private lastWriteAt = 0;
  /**
   * What storage holds, by id (the need written with each key); undefined (not known) until
   * a list was read whole or written. A recalculation lets go of every key and takes it
   * back, so the needs move and come back: a save that would write this again writes
   * nothing (it was a tenth of a warm recalculation's time and most of what it kept in
   * memory). This object is the list's only writer; where the list has no workbook to live
   * in and shares the machine's storage, another workbook's save is not undone by this
   * one's unchanged list.
   */
  private written: Map<string, SeriesNeed> | undefined;
  /**
   * Ids of keys a holder let go of since their union was computed: it is computed again once,
   * when the cells of the turn have come and gone (or when read). Each release computed it
   * from every holder left, and a recalculation lets go of every cell: a key shown by k cells
   * cost k squared steps, the first entry of a warm recalculation's profile.
   */
  private readonly staleUnions = new Set<string>();
  private settleScheduled = false;
  /** Ids of keys whose last holder let go, with when (epoch ms), oldest first. */
  private readonly released = new Map<string, number>();
  private sweepTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly graceMs: number;
  /**
   * The session's real time, for the save's wait and the release grace: how long the session
   * itself has waited, not the engine's clock (which a test freezes or moves by months). Bound
   * when the list is made, so that a save or sweep whose timer fires after its caller has gone
   * (a test file that ended, its global Date swapped and removed) still reads the time.
   */
  private readonly now: () => number = Date.now.bind(Date);

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly log?: Logger,
    options: WorkbookKeysOptions = {},
  ) {
    this.graceMs = options.graceMs ?? RELEASE_GRACE_MS;
  }

  async load(): Promise<void> {
    const stored = await this.storage.get<unknown>(WORKBOOK_KEYS_STORAGE_KEY);
    if (!Array.isArray(stored)) return;
    let skipped = 0;
    let merged = 0;
    let beyond = 0;
    const read = new Map<string, SeriesNeed>();
    const readKeys = new Map<string, RequestKey>();
    for (const item of stored) {
      const key = readStoredRequestKey(item);
      if (key === undefined) {
        skipped += 1;
        continue;
      }
      const need = readNeed((item as { need?: unknown }).need);
      const earlier = read.get(key.id);
      if (earlier === undefined && read.size >= MAX_STORED_KEYS) {
        beyond += 1;
        continue;
      }
      // A key listed twice is one key: what either entry says its cells need.
      if (earlier !== undefined) merged += 1;
      read.set(key.id, earlier === undefined ? need : unionNeed(earlier, need));
      readKeys.set(key.id, key);
    }
    for (const [id, key] of readKeys) {
      if (!this.keys.has(id)) this.keys.set(id, { key, need: read.get(id) ?? WHOLE_SERIES });
    }
    if (beyond > 0) {
      this.log?.(
        "warn",
        `The workbook's saved list holds more than ${MAX_STORED_KEYS.toLocaleString("en-US")} series requests: the ${beyond.toLocaleString("en-US")} beyond that were not read (their cells add them again as they evaluate).`,
      );
    }
    if (merged > 0)
      this.log?.("info", `${merged} duplicate entries of the workbook's saved key list were merged.`);
    // A list with unreadable, repeated or excess items is written again at the next save, in the current form.
    if (skipped === 0 && merged === 0 && beyond === 0 && this.written === undefined) this.written = read;
    else if (skipped + merged + beyond > 0) this.save();
    if (skipped > 0) {
      this.log?.(
        "info",
        `${skipped} saved workbook key(s) of an earlier format were not read; their cells add them again as they evaluate.`,
      );
    }
  }

  /**
   * Adds a key, or widens its need; writes are coalesced so a recalculation of 1,000 cells
   * saves once or twice.
   */
  add(key: RequestKey, need: SeriesNeed = WHOLE_SERIES): void {
    const known = this.keys.get(key.id);
    const widened = known ? unionNeed(known.need, need) : need;
    if (known !== undefined && sameNeed(known.need, widened)) return;
    this.keys.set(key.id, { key, need: widened });
    this.save();
  }

  /** A cell holds the id of a key this process made when it resolved the cell's arguments. */
  retainId(id: string, need: SeriesNeed = WHOLE_SERIES): () => void {
    const key = findRequestKey(id);
    if (key !== undefined) return this.retain(key, need);
    this.log?.("warn", `A cell held an unknown request key '${id}'; it is not refreshed.`);
    return () => undefined;
  }

  /** A cell holds a key until it calls the returned release (once; later calls do nothing). */
  retain(requestKey: RequestKey, need: SeriesNeed = WHOLE_SERIES): () => void {
    const key = requestKey.id;
    this.heldThisSession.add(key);
    // A recalculation retains every cell again: the union grows by one need at a time.
    let held = this.holders.get(key);
    if (held === undefined) {
      held = { key: requestKey, needs: [need], union: need };
      this.holders.set(key, held);
      this.setNeed(requestKey, held.union);
    } else {
      held.needs.push(need);
      held.union = unionNeed(held.union, need);
      // A stale union is recorded when it is computed again from every holder, this one included.
      if (!this.staleUnions.has(key)) this.setNeed(requestKey, held.union);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.holders.get(key);
      if (left !== undefined) {
        const index = left.needs.indexOf(need);
        if (index >= 0) {
          // Order does not matter to a union: the last need takes the place of this one.
          const last = left.needs.pop() as SeriesNeed;
          if (index < left.needs.length) left.needs[index] = last;
        }
        if (left.needs.length > 0) {
          // The union may shrink when a cell lets go: computed again from those left, later.
          this.staleUnions.add(key);
          this.scheduleSettle();
          return;
        }
        // Every holder went since the union was last computed: the key keeps what they needed
        // together, so a refresh-all before they come back plans for all of them.
        if (this.staleUnions.delete(key)) this.setNeed(requestKey, left.union);
      }
      this.holders.delete(key);
      // Re-inserted, so the map stays in release order (the sweep stops at the first not due).
      this.released.delete(key);
      this.released.set(key, this.now());
      this.armSweep(this.graceMs);
    };
  }

  /** Computes the stale unions once the current turn's cells have come and gone. */
  private scheduleSettle(): void {
    if (this.settleScheduled) return;
    this.settleScheduled = true;
    queueMicrotask(() => {
      this.settleScheduled = false;
      this.settleUnions();
    });
  }

  /** The holders' union of every key a holder let go of, computed again and recorded. */
  private settleUnions(): void {
    for (const id of this.staleUnions) {
      const held = this.holders.get(id);
      if (held === undefined || held.needs.length === 0) continue;
      held.union = held.needs.reduce(unionNeed);
      this.setNeed(held.key, held.union);
    }
    this.staleUnions.clear();
  }

  /**
   * One timer for every key in its grace: a recalculation cancels every cell before
   * invoking it again, and a timer per released key was a timer per cell.
   */
  private armSweep(delayMs: number): void {
    if (this.sweepTimer !== undefined) return;
    this.sweepTimer = setTimeout(() => this.sweep(), Math.max(0, delayMs));
    // In Node (headless runner, tests) a pending grace must not keep the process alive.
    (this.sweepTimer as { unref?: () => void }).unref?.();
  }

  /** Drops the keys whose grace has passed with no cell holding them again. */
  private sweep(): void {
    this.sweepTimer = undefined;
    const now = this.now();
    let removed = false;
    for (const [key, releasedAt] of this.released) {
      const left = releasedAt + this.graceMs - now;
      if (left > 0) {
        this.armSweep(left);
        break;
      }
      this.released.delete(key);
      if (!this.holders.has(key) && this.keys.delete(key)) removed = true;
    }
    if (removed) this.save();
  }

  /**
   * Forgets a saved key no cell holds (refresh-all found the series does not offer its
   * currency or unit, or the key is another spelling of a key it plans). A held key came
   * from a cell's own arguments, which the catalog accepted: it stays.
   */
  drop(id: string): void {
    if (this.holders.has(id) || !this.keys.delete(id)) return;
    this.released.delete(id);
    this.save();
  }

  /** True when a cell held this key this session (its own arguments named it). */
  wasHeld(id: string): boolean {
    return this.heldThisSession.has(id);
  }

  list(): RequestKey[] {
    return [...this.keys.values()].map(({ key }) => key);
  }

  /** What the workbook's cells need of a key, by id (the whole series when nothing says less). */
  need(id: string): SeriesNeed {
    if (this.staleUnions.size > 0) this.settleUnions();
    return this.keys.get(id)?.need ?? WHOLE_SERIES;
  }

  /** The union of the holders' needs replaces what was saved (a cell may now need less). */
  private setNeed(key: RequestKey, union: SeriesNeed): void {
    const known = this.keys.get(key.id);
    if (known !== undefined && sameNeed(known.need, union)) return;
    this.keys.set(key.id, { key, need: union });
    this.save();
  }

  /** Writes what is waiting for the save delay now; resolves once pending writes are done. */
  flushed(): Promise<void> {
    if (this.staleUnions.size > 0) this.settleUnions();
    if (this.saveTimer !== undefined) {
      clearTimeout(this.saveTimer);
      this.write();
    }
    return this.saving;
  }

  private save(): void {
    if (this.dirty) return;
    this.dirty = true;
    const changingStill = this.lastWriteAt > 0 && this.now() - this.lastWriteAt < this.saveDelayMs;
    this.saveDelayMs = changingStill ? Math.min(this.saveDelayMs * 2, SAVE_MAX_DELAY_MS) : SAVE_DELAY_MS;
    this.saveTimer = setTimeout(() => this.write(), this.saveDelayMs);
    // In Node (headless runner, tests) a pending save must not keep the process alive.
    (this.saveTimer as { unref?: () => void }).unref?.();
  }

  /** True when storage holds exactly these keys with these needs (a save would change nothing). */
  private matchesWritten(): boolean {
    const { written: stored } = this;
    if (stored === undefined || this.keys.size !== stored.size) return false;
    for (const [id, { need }] of this.keys) {
      const written = stored.get(id);
      if (written === undefined || !sameNeed(written, need)) return false;
    }
    return true;
  }

  private write(): void {
    this.saveTimer = undefined;
    this.lastWriteAt = this.now();
    this.saving = this.saving.then(async () => {
      this.dirty = false;
      if (this.staleUnions.size > 0) this.settleUnions();
      if (this.matchesWritten()) return;
      try {
        const written = new Map<string, SeriesNeed>();
        const stored: StoredKey[] = [...this.keys.values()].map(({ key, need }) => {
          written.set(key.id, need);
          return { ...toStoredRequestKey(key), need };
        });
        await this.storage.set(WORKBOOK_KEYS_STORAGE_KEY, stored);
        this.written = written;
      } catch (error) {
        this.log?.(
          "warn",
          `Could not save the workbook's keys: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  }
}
