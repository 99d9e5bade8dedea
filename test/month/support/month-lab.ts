// The month lab: the in-process emulator (its own state, routes and admin controls, reached
// through Fastify's inject, so no socket outlives a jump of the clock) and the real engine
// and custom functions, all on one simulated time: jest's fake timers. Date.now, setTimeout
// and performance.now are fake, so the engine's injected clock, the code that still reads
// Date.now or arms setTimeout directly (the cells' retry timers, the key list's save timer,
// the request gate, the retry backoff) and the emulator's clock (its realNow and rate
// limiter read the same fake time; /__admin/clock is set to it at each step) walk together.
// Nothing waits for real time: the lab lets pending I/O finish (real setImmediate turns),
// then jumps to the next timer, so a day costs what happens in it, not its length.
//
// The lab's fetch is the test's witness: it logs every call the engine sends (time,
// operation, status), and can cut the network (a refused connection, as Node's fetch
// reports it).
import type { FastifyInstance } from "fastify";
import { createEngine } from "../../../src/core/engine";
import type { Engine } from "../../../src/core/engine-api";
import type { FetchLike, KeyValueStorage } from "../../../src/core/environment";
import type { Operation, ProductId } from "../../../src/core/model";
import { MemoryStorage } from "../../../src/core/storage";
import { EmulatorState } from "../../../src/emulator/emulator-state";
import { resolveOptions, type EmulatorOptions } from "../../../src/emulator/options";
import { buildApp } from "../../../src/emulator/server";

/** Where the engine believes the service is; the lab answers every address itself. */
export const SERVICE_URL = "http://127.0.0.1:3001";

export interface LoggedCall {
  at: number;
  operation: Operation;
  /** HTTP status, or null when the call got no answer (network cut, aborted). */
  status: number | null;
  url: string;
}

export interface EmulatorStats {
  calls: Record<Operation, number>;
  dataRequests: Record<string, number>;
  dataRequestsByProduct: Record<string, Record<string, number>>;
}

export function operationOf(url: string): Operation {
  const path = new URL(url).pathname;
  if (path.startsWith("/access_token")) return "access_token";
  if (path.includes("/data_limits")) return "data_limits";
  if (path.includes("/export/series_hist/")) return "series_hist";
  if (path.includes("/export/series/")) return "series_values";
  return "series_info";
}

/** A seeded generator (mulberry32): the cells' retry jitter, the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Real event-loop turns (setImmediate is left real): what an inject and its reading need. */
const realTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Timers fired in a row without the clock moving before the lab calls it a loop. */
const SAME_INSTANT_LIMIT = 20_000;

export class MonthLab {
  readonly calls: LoggedCall[] = [];
  readonly logs: string[] = [];
  /** While true every call fails as a refused connection (the network is down). */
  networkDown = false;
  private inFlight = 0;

  private constructor(
    readonly state: EmulatorState,
    private readonly app: FastifyInstance,
    /** The shared time: fake Date.now in the walk, a pinned clock where timers stay real. */
    readonly now: () => number,
  ) {}

  /**
   * Starts the emulator on the shared time `now`. For the walk (settle, advanceTo) fake
   * timers must be installed first (jest.useFakeTimers with the month's start as `now`,
   * setImmediate and nextTick real) and `now` left as the fake Date.now.
   */
  static async start(
    options: Partial<EmulatorOptions>,
    now: () => number = () => Date.now(),
  ): Promise<MonthLab> {
    const state = new EmulatorState(
      resolveOptions({ quiet: true, latencyMs: 0, now: new Date(now()).toISOString(), ...options }),
      { realNow: now, monotonic: now },
    );
    const app = buildApp(state);
    await app.ready();
    return new MonthLab(state, app, now);
  }

  get username(): string {
    return this.state.options.user;
  }

  get password(): string {
    return this.state.options.password;
  }

  readonly fetch: FetchLike = async (input, init) => {
    const call: LoggedCall = { at: this.now(), operation: operationOf(input), status: null, url: input };
    this.calls.push(call);
    if (this.networkDown) {
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error(`connect ECONNREFUSED ${new URL(input).host}`), {
          code: "ECONNREFUSED",
        }),
      });
    }
    const response = await this.inject(input, init);
    call.status = response.status;
    return response;
  };

  private async inject(input: string, init: RequestInit | undefined): Promise<Response> {
    const url = new URL(input);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    this.inFlight += 1;
    try {
      const signal = init?.signal ?? undefined;
      signal?.throwIfAborted();
      const answer = this.app.inject({
        method: (init?.method ?? "GET") as "GET",
        url: url.pathname + url.search,
        headers,
        payload: typeof init?.body === "string" ? init.body : undefined,
      });
      const reply = await (signal
        ? Promise.race([
            answer,
            new Promise<never>((_resolve, reject) =>
              signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
            ),
          ])
        : answer);
      const replyHeaders = new Headers();
      for (const [name, value] of Object.entries(reply.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) replyHeaders.append(name, String(one));
      }
      const empty = reply.statusCode === 204 || reply.statusCode === 304;
      return new Response(empty ? null : new Uint8Array(reply.rawPayload), {
        status: reply.statusCode,
        headers: replyHeaders,
      });
    } finally {
      this.inFlight -= 1;
    }
  }

  /** An engine as the headless runner builds it (default tuning), on the lab's fetch and clock. */
  engine(storage: KeyValueStorage = new MemoryStorage()): Engine {
    return createEngine(
      {
        fetch: this.fetch,
        storage,
        clock: { now: this.now },
        log: (level, text) => this.logs.push(`${new Date(this.now()).toISOString()} ${level}: ${text}`),
      },
      { settings: { baseUrl: SERVICE_URL, authUrl: SERVICE_URL } },
    );
  }

  /** An admin control of the emulator (not logged as an engine call). */
  async admin<T = unknown>(
    path: string,
    body?: unknown,
    method: "POST" | "GET" | "DELETE" = "POST",
  ): Promise<T> {
    const reply = await this.app.inject({
      method,
      url: `/__admin/${path}`,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    if (reply.statusCode >= 300) throw new Error(`admin ${path}: HTTP ${reply.statusCode} ${reply.body}`);
    return JSON.parse(reply.body) as T;
  }

  stats(): Promise<EmulatorStats> {
    return this.admin<EmulatorStats>("stats", undefined, "GET");
  }

  /** Sets the emulator's clock to the shared time (a release instant passed is published then). */
  async syncServiceClock(): Promise<void> {
    await this.admin("clock", { now: new Date(this.now()).toISOString() });
  }

  /**
   * The service's own Data Limits of a product, read from its state (no call: reading
   * them through the API would itself count as a call of the month).
   */
  serviceLimits(product: ProductId): Record<string, { remaining_requests: number; total_requests: number }> {
    const datasets = this.state.catalog
      .datasets(product)
      .filter((dataset) => this.state.isSubscribed(dataset));
    return this.state.quotas.report(product, datasets);
  }

  /** Lets pending I/O run: real turns until no inject is in flight, and a few more. */
  async flush(): Promise<void> {
    for (let turn = 0; turn < 200 && (turn < 8 || this.inFlight > 0); turn += 1) await realTurn();
  }

  /**
   * Runs work to its end, moving the fake clock from timer to timer while it waits.
   * Fails when the work is not done within limitMs of simulated time.
   */
  async settle<T>(work: Promise<T>, limitMs = 30 * 60_000): Promise<T> {
    let done = false;
    const watched = work.finally(() => {
      done = true;
    });
    watched.catch(() => undefined);
    const start = Date.now();
    let sameInstant = 0;
    let last = start;
    while (!done) {
      await this.flush();
      if (done) break;
      if (Date.now() - start > limitMs) {
        throw new Error(`work not done within ${limitMs / 60_000} min of simulated time`);
      }
      if (jest.getTimerCount() === 0) {
        // Nothing the lab can move: only outside I/O (a file) can still end the work.
        for (let turn = 0; turn < 100_000 && !done && jest.getTimerCount() === 0; turn += 1) await realTurn();
        if (!done && jest.getTimerCount() === 0) {
          throw new Error("work waits for nothing the lab can move (no timer, no call in flight)");
        }
        continue;
      }
      jest.advanceTimersToNextTimer();
      sameInstant = Date.now() === last ? sameInstant + 1 : 0;
      last = Date.now();
      if (sameInstant > SAME_INSTANT_LIMIT) throw new Error(`timer loop at ${new Date(last).toISOString()}`);
    }
    return watched;
  }

  /** Lives until `target` (epoch ms): every timer due by then fires, with its I/O, in order. */
  async advanceTo(target: number): Promise<void> {
    if (target < Date.now()) throw new Error(`the clock cannot go back to ${new Date(target).toISOString()}`);
    const sentinel = setTimeout(() => undefined, target - Date.now());
    let sameInstant = 0;
    let last = Date.now();
    try {
      for (;;) {
        await this.flush();
        if (Date.now() >= target) break;
        jest.advanceTimersToNextTimer();
        sameInstant = Date.now() === last ? sameInstant + 1 : 0;
        last = Date.now();
        if (sameInstant > SAME_INSTANT_LIMIT)
          throw new Error(`timer loop at ${new Date(last).toISOString()}`);
      }
    } finally {
      clearTimeout(sentinel);
    }
    await this.flush();
  }

  async advanceBy(ms: number): Promise<void> {
    await this.advanceTo(Date.now() + ms);
  }
}
