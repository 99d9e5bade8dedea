// One refresh-all at a time for the whole runtime. The ribbon's "Refresh all" and the
// task pane's button both start it here, and the pane shows the progress and summary of
// whichever started it (a second click while it runs joins the running refresh).
import { ENGINE_DEFAULTS } from "../core/defaults";
import type { Engine, RefreshProgress, RefreshSummary } from "../core/engine-api";
import { serviceCondition, type ServiceConditionKind } from "../core/service-condition";

/**
 * How a refresh-all was asked for. `unreviewed`: by a control that shows no cost (the ribbon,
 * the banner's offer, the automatic refresh after a release): it runs only while it spends at
 * most a stated share of each dataset's remaining data requests (docs/taskpane.md).
 */
export interface RefreshRequest {
  unreviewed?: boolean;
}

/**
 * When a refresh-all ended and the service's condition then. Kept with the outcome, not by
 * the view that shows it: a view mounted later (a tab opened again) judges whether the
 * outcome is still true by the condition it met, not by the condition when it mounted.
 */
export interface RefreshEnding {
  endedAt: number;
  /** Undefined when the engine could not tell its state. */
  conditionAtEnd: ServiceConditionKind | undefined;
}

export type RefreshState =
  | { status: "idle" }
  | { status: "running"; progress: RefreshProgress | null }
  | ({ status: "done"; summary: RefreshSummary } & RefreshEnding)
  | ({ status: "failed"; message: string } & RefreshEnding);

type Listener = (state: RefreshState) => void;

export class RefreshRunner {
  private state: RefreshState = { status: "idle" };
  private running: Promise<RefreshSummary> | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly engine: () => Engine,
    private readonly now: () => number = Date.now,
  ) {}

  current(): RefreshState {
    return this.state;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts a refresh, or returns the one already running. Never rejects: failures become state. */
  run(request: RefreshRequest = {}): Promise<RefreshSummary | null> {
    if (!this.running) {
      this.set({ status: "running", progress: null });
      this.running = this.engine().refreshAll(
        (progress) => this.set({ status: "running", progress }),
        request.unreviewed ? { maxShareOfRemaining: ENGINE_DEFAULTS.unreviewedRefreshMaxShare } : {},
      );
      this.running
        .then((summary) => this.set({ status: "done", summary, ...this.ending() }))
        .catch((error: unknown) =>
          this.set({
            status: "failed",
            message: error instanceof Error ? error.message : String(error),
            ...this.ending(),
          }),
        )
        .finally(() => {
          this.running = null;
        });
    }
    return this.running.catch(() => null);
  }

  private ending(): RefreshEnding {
    let conditionAtEnd: ServiceConditionKind | undefined;
    try {
      const engine = this.engine();
      conditionAtEnd = serviceCondition(engine.serviceState(), engine.authStatus().signedIn).kind;
    } catch {
      // serviceState reads the clock and settings; the outcome is told all the same.
      conditionAtEnd = undefined;
    }
    return { endedAt: this.now(), conditionAtEnd };
  }

  private set(state: RefreshState): void {
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }
}
