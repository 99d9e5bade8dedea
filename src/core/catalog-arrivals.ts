// Cells that ask for a code while the catalogs load wait here for the product that holds
// it. A cold workbook of 100,000 formulas asks before any catalog has arrived; waiting
// per cell on each of the three loads would cost a dozen promises and reactions per cell,
// and waking every cell in one go would keep the event loop busy for seconds before the
// first data call could leave (the calls a cell starts queue behind every other cell's
// wake-up). So a load round has one reaction per load, the waiters are kept by code, and they are
// woken a chunk at a time with a turn of the event loop between chunks, so the first data
// calls go out while later cells are still being woken. Rounds are kept per environment:
// a cell that asks after a switch to the sandbox never waits on (or reads) live catalogs.
import type { SeriesInfo } from "./model";

/** Waiters woken before the event loop gets a turn (about 30 ms of cell work in Node). */
export const WAKE_CHUNK = 1000;

/** Gives the event loop a turn (timers, network) before more cells are woken. */
export type YieldTurn = () => Promise<void>;

const nextTurn: YieldTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

type Waiter = (info: SeriesInfo | undefined) => void;

/** One set of catalog loads and the codes waiting on them. */
class LoadRound {
  /** Every load's outcome, once all have settled. */
  readonly settled: Promise<Array<PromiseSettledResult<unknown>>>;
  private readonly waiting = new Map<string, Waiter[]>();
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    loads: ReadonlyArray<Promise<unknown>>,
    private readonly find: (code: string) => SeriesInfo | undefined,
    private readonly yieldTurn: YieldTurn,
    onSettled: () => void,
  ) {
    this.settled = Promise.allSettled(loads);
    for (const load of loads)
      load.then(
        () => this.deliver(false),
        () => undefined,
      );
    void this.settled.then(() => {
      onSettled();
      this.deliver(true);
    });
  }

  wait(code: string): Promise<SeriesInfo | undefined> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(code);
      if (waiters === undefined) this.waiting.set(code, [resolve]);
      else waiters.push(resolve);
    });
  }

  /** Deliveries run one after another: a later load's never overtakes an earlier one's. */
  private deliver(final: boolean): void {
    this.delivering = this.delivering.then(() => this.wake(final));
  }

  /** Wakes the waiters whose code is now known (all of them once every load has settled). */
  private async wake(final: boolean): Promise<void> {
    let woken = 0;
    // A Map iterates entries added meanwhile, and deleting the current entry is safe.
    for (const [code, waiters] of this.waiting) {
      const found = this.find(code);
      if (found === undefined && !final) continue;
      this.waiting.delete(code);
      for (const waiter of waiters) waiter(found);
      woken += waiters.length;
      if (woken >= WAKE_CHUNK) {
        woken = 0;
        await this.yieldTurn();
      }
    }
  }
}

export class CatalogArrivals<S extends string> {
  /** The round under way per scope (environment). */
  private readonly rounds = new Map<S, LoadRound>();

  constructor(
    private readonly find: (code: string, scope: S) => SeriesInfo | undefined,
    private readonly yieldTurn: YieldTurn = nextTurn,
  ) {}

  /**
   * Waits for `code` on the loads under way in `scope`, starting them with `start` when none are.
   * `found` is the code's record as soon as the product holding it has loaded, undefined
   * once every load has settled without it; `settled` is every load's outcome.
   */
  wait(
    code: string,
    scope: S,
    start: () => ReadonlyArray<Promise<unknown>>,
  ): { found: Promise<SeriesInfo | undefined>; settled: Promise<Array<PromiseSettledResult<unknown>>> } {
    let round = this.rounds.get(scope);
    if (round === undefined) {
      const find = (waited: string): SeriesInfo | undefined => this.find(waited, scope);
      const started: LoadRound = new LoadRound(start(), find, this.yieldTurn, () => {
        // Settled rounds take no new waiters: a later question starts (cheap) loads again.
        if (this.rounds.get(scope) === started) this.rounds.delete(scope);
      });
      this.rounds.set(scope, started);
      round = started;
    }
    return { found: round.wait(code), settled: round.settled };
  }
}
