// What the engine receives from its host (Excel's shared runtime, Node tests, the
// headless runner). Nothing in src/core reaches for globals: this is the whole list.
import type { PacingTimers, Scheduler } from "./scheduler";

/** The subset of the WHATWG fetch the engine uses (window.fetch and Node's fetch both fit). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/**
 * Key-value persistence (IndexedDB through idb-keyval in Excel, a file or memory in
 * Node). Values must survive structured cloning / JSON: plain objects, arrays,
 * strings, numbers, booleans, null.
 */
export interface KeyValueStorage {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  /**
   * Writes several keys in one transaction where the store has them (IndexedDB): all or
   * none. Optional; without it the keys are written one by one.
   */
  setMany?(entries: ReadonlyArray<readonly [string, unknown]>): Promise<void>;
  delete(key: string): Promise<void>;
  keys(): Promise<string[]>;
  /** True when data survives a restart (false for the in-memory fallback). */
  readonly persistent: boolean;
}

export type LogLevel = "debug" | "info" | "warn" | "error";

/** Never pass a password or token to a logger. */
export type Logger = (level: LogLevel, message: string) => void;

export interface EngineEnvironment {
  fetch: FetchLike;
  storage: KeyValueStorage;
  clock: Clock;
  /**
   * The timers of the service calls: each attempt's timeout, the wait before a retry and
   * the token request's timeout (default: the real setTimeout). Tests pass timers driven by
   * their clock.
   */
  scheduler?: Scheduler;
  /**
   * The timers of the request rate (default: the real ones): the service counts its rate in
   * real time, so a test that drives `scheduler` by its own clock passes real timers here,
   * watched to know when the engine is pacing its calls.
   */
  pacing?: PacingTimers;
  log?: Logger;
  /**
   * Where the workbook's own state (the request keys its cells use) is kept. In Excel
   * the host passes the document's settings, so the list travels with the workbook and
   * two workbooks never share it; without it, `storage` is used.
   */
  workbookStorage?: KeyValueStorage;
  /**
   * The series codes the workbook's cells name, read from the workbook itself (in Excel: the
   * text literals of its PCD formulas and the cells holding a code). The saved key list
   * travels in the file and may name anything: refresh-all and its cost preview plan a saved
   * key only when a cell held it this session or its code is here. Absent (the runner, tests):
   * every saved key. A read that fails plans the keys held this session only.
   */
  workbookCodes?: () => Promise<ReadonlySet<string>>;
}
