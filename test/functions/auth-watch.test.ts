// The auth listener all live cells of an engine share (src/functions/auth-watch.ts): one
// engine subscription however many cells, every live cell re-run on a new session, and
// cancelled cells dropped (the engine is let go with the last one).
import type { AuthStatus, Engine } from "../../src/core/engine-api";
import { unwatchSessions, watchSessions, type SessionWatcher } from "../../src/functions/auth-watch";
import type { CellError } from "../../src/functions/cell-errors";
import { startStreamingCell, type CellJob } from "../../src/functions/streaming-cell";
import { realEngine, type RealEngine } from "./support/real-engine";

/** Counts the engine's live auth subscriptions, through its own onAuthChange. */
function countAuthListeners(engine: Engine): () => number {
  let live = 0;
  const subscribe = engine.onAuthChange.bind(engine);
  engine.onAuthChange = (listener) => {
    const unsubscribe = subscribe(listener);
    live += 1;
    let done = false;
    return () => {
      if (!done) {
        done = true;
        live -= 1;
      }
      unsubscribe();
    };
  };
  return () => live;
}

/** A watcher that counts its re-runs. */
function counter(): SessionWatcher & { runs: number } {
  return {
    runs: 0,
    rerun() {
      this.runs += 1;
    },
  };
}

const asError = (error: CellError) => ({ error });

/** A meta cell (no key, so its only engine listeners are meta changes and sessions) counting its runs. */
function countingCell(engine: Engine) {
  let runs = 0;
  const job: CellJob<number> = {
    watch: "meta",
    compute: async () => {
      runs += 1;
      return runs;
    },
  };
  const sink = { setResult: (): void => undefined };
  const cell = startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  return { cell, runs: () => runs };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

// The harness's auth starts signed in as dev@example.com on "live".
test.each<[string, Array<Partial<AuthStatus>>, number]>([
  ["a sign-in after a sign-out", [{ signedIn: false }, { signedIn: true }], 1],
  ["another user", [{ username: "other@example.com" }], 1],
  ["another environment", [{ environment: "sandbox" }], 1],
  ["a renewed token of the same session", [{ tokenExpiresAt: 123 }], 0],
  ["a sign-out", [{ signedIn: false }], 0],
  ["two sign-ins, each after a sign-out", [{ signedIn: false }, {}, { signedIn: false }, {}], 2],
])("%s re-runs every watched cell %i time(s)", (_name, statuses, expectedRuns) => {
  const h: RealEngine = realEngine([]);
  const cells = [counter(), counter(), counter()];
  for (const cell of cells) watchSessions(h.engine, cell);
  for (const patch of statuses) h.auth.notify(patch);
  expect(cells.map((cell) => cell.runs)).toEqual([expectedRuns, expectedRuns, expectedRuns]);
  for (const cell of cells) unwatchSessions(h.engine, cell);
});

test("many cells share one engine subscription, let go with the last cell", () => {
  const h = realEngine([]);
  const authListeners = countAuthListeners(h.engine);
  const cells = Array.from({ length: 100 }, () => countingCell(h.engine));
  expect(authListeners()).toBe(1);
  for (const { cell } of cells.slice(1)) cell.cancel();
  expect(authListeners()).toBe(1);
  cells[0]?.cell.cancel();
  expect(authListeners()).toBe(0);
  // A cell after all others were cancelled subscribes afresh.
  const late = countingCell(h.engine);
  expect(authListeners()).toBe(1);
  late.cell.cancel();
  expect(authListeners()).toBe(0);
});

test("a new session re-runs every live cell, and no cancelled one", async () => {
  const h = realEngine([]);
  const cells = Array.from({ length: 6 }, () => countingCell(h.engine));
  await flush();
  expect(cells.map(({ runs }) => runs())).toEqual([1, 1, 1, 1, 1, 1]);
  for (const { cell } of cells.slice(0, 3)) cell.cancel();
  h.auth.notify({ username: "other@example.com" });
  await flush();
  expect(cells.map(({ runs }) => runs())).toEqual([1, 1, 1, 2, 2, 2]);
  for (const { cell } of cells.slice(3)) cell.cancel();
});

test("a cell that cancels another during a new session's re-runs does not stop the others", () => {
  const h = realEngine([]);
  const second = counter();
  const third = counter();
  const first: SessionWatcher = {
    rerun: () => unwatchSessions(h.engine, second),
  };
  for (const cell of [first, second, third]) watchSessions(h.engine, cell);
  h.auth.notify({ username: "other@example.com" });
  expect(third.runs).toBe(1);
  const secondRuns = second.runs;
  h.auth.notify({ username: "dev@example.com" });
  expect([second.runs, third.runs]).toEqual([secondRuns, 2]);
  for (const cell of [first, third]) unwatchSessions(h.engine, cell);
});

test("cells of different engines hear only their own engine's sessions", () => {
  const one = realEngine([]);
  const other = realEngine([]);
  const ofOne = counter();
  const ofOther = counter();
  watchSessions(one.engine, ofOne);
  watchSessions(other.engine, ofOther);
  one.auth.notify({ username: "other@example.com" });
  expect([ofOne.runs, ofOther.runs]).toEqual([1, 0]);
  unwatchSessions(one.engine, ofOne);
  unwatchSessions(other.engine, ofOther);
});
