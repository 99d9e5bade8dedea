// A function's job code loaded on its first use, in a chunk of its own: Excel loads the
// functions runtime at start, so code only a rarely used function needs waits until a
// cell calls that function. The function is still registered at start; its first cells
// wait for the load, later ones get the job at once.
import type { Engine } from "../core/engine-api";
import { errorMessage, PcdError } from "../core/errors";
import type { SeriesNeed } from "../core/series-need";
import type { HostCapabilities } from "./host-capabilities";
import type { CellJob, CellRun, CellWatch } from "./streaming-cell";

/** What runCell calls to make a cell's job. */
export type JobFactory<A, T> = (engine: Engine, args: A, host: HostCapabilities) => CellJob<T>;

/**
 * A job factory whose module `load` brings (e.g. `() => import("./average")`), loaded once
 * and shared by every cell; `pick` takes the factory out of the module. A failed load is a
 * network error naming `functionName` (the cell retries as for any passing failure) and
 * the next cell or retry loads again.
 */
export function lazyJob<M, A, T>(
  functionName: string,
  load: () => Promise<M>,
  pick: (module: M) => JobFactory<A, T>,
): JobFactory<A, T> {
  let loaded: JobFactory<A, T> | undefined;
  let loading: Promise<JobFactory<A, T>> | undefined;
  const loadFactory = (): Promise<JobFactory<A, T>> =>
    (loading ??= load().then(
      (module) => (loaded = pick(module)),
      (error: unknown) => {
        loading = undefined;
        throw new PcdError(
          "network",
          `PCD could not load the code of ${functionName} (${errorMessage(error)}): check the connection; the cell tries again.`,
        );
      },
    ));
  return (engine, args, host) => {
    if (loaded !== undefined) return loaded(engine, args, host);
    return new JobOnFirstUse(loadFactory, engine, args, host);
  };
}

/** A cell's job while its code loads: computing loads it, then the loaded job answers for the cell. */
class JobOnFirstUse<A, T> implements CellJob<T> {
  private job: CellJob<T> | undefined;

  constructor(
    private readonly loadFactory: () => Promise<JobFactory<A, T>>,
    private readonly engine: Engine,
    private readonly args: A,
    private readonly host: HostCapabilities,
  ) {}

  /** Until the code is there, a cell that failed listens for catalog changes like a data cell without a key. */
  get watch(): CellWatch {
    return this.job?.watch ?? "data";
  }

  computeNow(track: (key: string, need?: SeriesNeed) => void): T | undefined {
    return this.job?.computeNow?.(track);
  }

  async compute(run: CellRun): Promise<T> {
    this.job ??= (await this.loadFactory())(this.engine, this.args, this.host);
    return this.job.compute(run);
  }
}
