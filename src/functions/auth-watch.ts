// One auth listener per engine for all its live cells. A new session (a sign-in, another
// user, another environment) re-runs every live cell: cells that failed for want of a
// session get their data, and cells that show data show the new session's. A listener of
// its own per cell cost a closure, an unsubscribe function and a set entry in the engine for
// each of the tens of thousands of cells a recalculation re-creates; here a cell costs one
// entry in a set, and the engine is subscribed to only while some cell is live.
import type { AuthStatus, Engine, Unsubscribe } from "../core/engine-api";

/** What the registry asks of a cell. */
export interface SessionWatcher {
  /** Called when a new session starts. */
  rerun(): void;
}

class AuthWatch {
  private readonly cells = new Set<SessionWatcher>();
  private unsubscribe: Unsubscribe | undefined;
  /**
   * The status of the latest auth event, or the one read when the first cell came. A cell
   * compares against it instead of the status when it itself started: they differ only when
   * the status changed without an event in between, and then cells re-run once more than
   * needed, which sets nothing new (identical results are not set again).
   */
  private lastAuth: AuthStatus | undefined;

  constructor(private readonly engine: Engine) {}

  add(cell: SessionWatcher): void {
    this.cells.add(cell);
    if (this.unsubscribe !== undefined) return;
    this.lastAuth = safeAuthStatus(this.engine);
    this.unsubscribe = this.engine.onAuthChange((status) => this.onAuthChange(status));
  }

  /** The engine is let go with the last cell, so an engine without cells has no listener of ours. */
  delete(cell: SessionWatcher): void {
    if (!this.cells.delete(cell) || this.cells.size > 0 || this.unsubscribe === undefined) return;
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    this.lastAuth = undefined;
    unsubscribe();
  }

  private onAuthChange(status: AuthStatus): void {
    const previous = this.lastAuth;
    this.lastAuth = status;
    const newSession =
      status.signedIn &&
      (!previous?.signedIn ||
        previous.username !== status.username ||
        previous.environment !== status.environment);
    if (!newSession) return;
    // A copy: a re-run may cancel or start cells (their results reach Excel), changing the set.
    for (const cell of [...this.cells]) cell.rerun();
  }
}

const watches = new WeakMap<Engine, AuthWatch>();

/** Re-runs the cell whenever the engine starts a new session, until unwatchSessions. */
export function watchSessions(engine: Engine, cell: SessionWatcher): void {
  let watch = watches.get(engine);
  if (watch === undefined) {
    watch = new AuthWatch(engine);
    watches.set(engine, watch);
  }
  watch.add(cell);
}

/** Stops re-running the cell on new sessions (harmless if it was not watched). */
export function unwatchSessions(engine: Engine, cell: SessionWatcher): void {
  watches.get(engine)?.delete(cell);
}

function safeAuthStatus(engine: Engine): AuthStatus | undefined {
  try {
    return engine.authStatus();
  } catch {
    return undefined;
  }
}
