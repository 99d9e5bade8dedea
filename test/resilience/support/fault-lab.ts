// The fault lab: one in-process emulator (127.0.0.1, port 0, latency 0), engines built the
// way the add-in builds them (createEngine, real HTTP) and a fetch wrapper that sees every
// exchange. Time is the lab's own (LabClock): the engine's clock, the service's clock and
// the engine's call timers read it, and it moves only when a scenario sets it or when
// every call in flight is one the lab holds and the engine is not pacing its calls (the
// pacing, like the service's rate limit, keeps real time). The wrapper is the test's own
// witness of what the service charged (codes of every 2xx data answer); it lets a scenario
// act at an exact moment (e.g. expire the token after the first data call), hold answers (a
// call slower than its timeout: no answer until the engine gives up, then the service
// answers and charges it), or make the service unreachable (a closed port on 127.0.0.1: a
// real connection refusal).
import { createServer } from "node:net";
import { createEngine } from "../../../src/core/engine";
import type { Engine } from "../../../src/core/engine-api";
import type { FetchLike, KeyValueStorage } from "../../../src/core/environment";
import type { Operation } from "../../../src/core/model";
import { realPacing, type PacingTimers } from "../../../src/core/scheduler";
import { MemoryStorage } from "../../../src/core/storage";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator";
import { LabClock } from "./lab-clock";

/**
 * Engine settings of every scenario: the 130 s call timeout scaled down to 5 s of the
 * lab's time (RELIABILITY.md), so that a wave of held calls stays well inside the engine's
 * 30 s "recent failure" window, as 130 s waves of real calls do against the real one.
 */
export const CALL_TIMEOUT_MS = 5_000;
/** What a cell says when its call timed out in the lab. */
export const TIMEOUT_CAUSE = new RegExp(`no answer within ${CALL_TIMEOUT_MS / 1000} s`);
/** The engine's retry policy in the lab: the default number of retries with short backoffs. */
export const RETRY = { maxRetries: 4, baseDelayMs: 10, maxDelayMs: 50 };
/**
 * Real event-loop turns without a call in flight (other than held ones) before the lab
 * moves its clock to the next timer: an answer handed to the engine is read, and its
 * timeout cancelled, within these turns.
 */
const QUIET_TURNS = 10;
/** A wait of the lab gives up after this much real time: it only guards against a hang. */
export const HANG_GUARD_MS = 30_000;

export interface EmulatorStats {
  calls: Record<Operation, number>;
  dataRequests: Record<string, number>;
  dataRequestsByProduct: Record<string, Record<string, number>>;
}

export interface Exchange {
  operation: Operation;
  url: string;
  /** HTTP status, or null when the request failed without an answer (drop, refusal, timeout). */
  status: number | null;
  /** A 2xx answer whose body is JSON: what the service charges (an injected malformed body is not charged). */
  charged: boolean;
  /** For data calls: one entry per code element ("68520-8-1&c=3"), prefixed by product and environment. */
  codes: string[];
}

/** What a hook is told of a data call about to be forwarded. */
export interface DataCall {
  operation: "series_values" | "series_hist";
  /** As in Exchange.codes. */
  codes: string[];
}

/** What the hold hook is told of a call (codes: as in Exchange.codes, empty but for data calls). */
export interface HeldCall {
  operation: Exclude<Operation, "access_token">;
  codes: string[];
}

export interface FetchHooks {
  /** Runs before a data call (Series Values / History) is forwarded; n counts from 1. */
  beforeDataCall?: (n: number, call: DataCall) => Promise<void>;
  /**
   * Calls the service answers too late (any but token requests): the lab holds each until
   * the engine gives up on it (its timeout fires as the lab's clock passes it), then sends
   * it to the service, which answers and charges it as it would a late answer.
   */
  hold?: (call: HeldCall) => boolean;
  /** While true every request goes to a closed local port (connection refused). */
  unreachable?: boolean;
}

export function operationOf(url: string): Operation {
  const path = new URL(url).pathname;
  if (path.startsWith("/access_token")) return "access_token";
  if (path.includes("/data_limits")) return "data_limits";
  if (path.includes("/export/series_hist/")) return "series_hist";
  if (path.includes("/export/series/")) return "series_values";
  return "series_info";
}

/** "energy_price|live|68520-8-1&c=3" per code element of a data call's URL. */
export function chargedCodes(url: string): string[] {
  const path = decodeURIComponent(new URL(url).pathname);
  const match = /^\/([a-z_]+)\/v1\/(sandbox\/)?export\/series(?:_hist)?\/(.+)$/.exec(path);
  if (!match) return [];
  const [, product, sandbox, segment] = match;
  const environment = sandbox ? "sandbox" : "live";
  return (segment ?? "").split(",").map((element) => `${product}|${environment}|${element}`);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

export class FaultLab {
  readonly exchanges: Exchange[] = [];
  readonly hooks: FetchHooks = {};
  readonly logs: string[] = [];
  /** Every access token the service issued (the secrets tests look for them everywhere). */
  readonly issuedTokens: string[] = [];
  /** Waits of the lab that gave up (a scenario fails on any). */
  readonly waitFailures: string[] = [];
  private dataCalls = 0;
  /** Calls the engine is waiting on that the lab does not hold, and its pacing waits. */
  private answering = 0;
  private moving = false;
  /** Told when the last call the engine waits on (held ones aside) is answered. */
  private whenNoneAnswering: Array<() => void> = [];

  private constructor(
    readonly emulator: RunningEmulator,
    readonly clock: LabClock,
    private readonly deadUrl: string,
  ) {
    clock.onTimer = () => void this.moveClock();
  }

  static async start(start: string, options: Partial<EmulatorOptions> = {}): Promise<FaultLab> {
    const clock = new LabClock(Date.parse(start));
    const emulator = await startEmulator(
      { now: start, quiet: true, latencyMs: 0, port: 0, host: "127.0.0.1", ...options },
      // The service's offset clock runs on the lab's time: it moves with the engine's.
      { realNow: clock.now },
    );
    return new FaultLab(emulator, clock, `http://127.0.0.1:${await closedPort()}`);
  }

  /** The engine's clock: the lab's time. */
  now = (): number => this.clock.now();

  /** Moves the service's clock; the engine's too unless engineToo is false. */
  async setClock(iso: string, engineToo = true): Promise<void> {
    if (engineToo) this.clock.set(Date.parse(iso));
    await this.admin("clock", { now: iso });
  }

  /**
   * Moves the lab's clock from timer to timer while any is set, each time once no call is
   * in flight but held ones (real turns, not real time, decide when that is).
   */
  private async moveClock(): Promise<void> {
    if (this.moving) return;
    this.moving = true;
    try {
      let quiet = 0;
      while (this.clock.pendingTimers > 0) {
        if (this.answering > 0) {
          quiet = 0;
          await new Promise<void>((resolve) => this.whenNoneAnswering.push(resolve));
          continue;
        }
        await new Promise((resolve) => setImmediate(resolve));
        if (this.answering > 0) continue;
        quiet += 1;
        if (quiet < QUIET_TURNS) continue;
        quiet = 0;
        this.clock.step();
      }
    } finally {
      this.moving = false;
    }
  }

  /** One more call (or pacing wait) the engine is waiting on; the returned function ends it, once. */
  private waitingOn(): () => void {
    this.answering += 1;
    let waiting = true;
    return () => {
      if (waiting) this.answering -= 1;
      waiting = false;
      if (this.answering === 0) for (const resolve of this.whenNoneAnswering.splice(0)) resolve();
    };
  }

  /**
   * The engine's request-rate timers: real ones (the service counts its rate in real time),
   * each counted as a call on its way while it runs, so that the lab's clock does not move
   * while the engine spaces its calls. Otherwise each real pause of the pacing would pass
   * for quiet, and the lab would jump to the next held call's timeout in it: the calls of one
   * recalculation, sent within a second, would time out in waves seconds of lab time apart.
   */
  readonly pacing: PacingTimers = {
    now: realPacing.now,
    after: (ms, run) => {
      const ended = this.waitingOn();
      const cancel = realPacing.after(ms, () => {
        run();
        ended();
      });
      return () => {
        cancel();
        ended();
      };
    },
  };

  readonly fetch: FetchLike = async (input, init) => {
    // Counted at once: the engine armed this call's timeout just before calling here.
    const answered = this.waitingOn();
    try {
      const operation = operationOf(input);
      let url = input;
      if (operation === "series_values" || operation === "series_hist") {
        this.dataCalls += 1;
        await this.hooks.beforeDataCall?.(this.dataCalls, { operation, codes: chargedCodes(input) });
      }
      // Token requests are never held: the scenarios' faults are on the data calls (a token
      // request's timeout runs on the lab's clock too, and an answered call cancels it).
      const held =
        operation !== "access_token" &&
        (this.hooks.hold?.({ operation, codes: chargedCodes(input) }) ?? false);
      if (this.hooks.unreachable) url = input.replace(this.emulator.url, this.deadUrl);
      const exchange: Exchange = {
        operation,
        url: input,
        status: null,
        charged: false,
        codes: chargedCodes(input),
      };
      this.exchanges.push(exchange);
      if (held) {
        answered();
        return await this.holdUntilAbandoned(url, init);
      }
      const response = await this.send(url, init);
      exchange.status = response.status;
      const body = await response.arrayBuffer();
      // Only data answers (what was charged) and token answers (the secrets) are read here.
      const text = (): string => new TextDecoder().decode(body);
      if (response.ok && exchange.codes.length > 0) exchange.charged = isJson(text());
      if (response.ok && operation === "access_token") {
        const token = (JSON.parse(text()) as { access_token?: unknown }).access_token;
        if (typeof token === "string") this.issuedTokens.push(token);
      }
      // Handed over whole: the engine reads it without waiting for the network.
      const empty = response.status === 204 || response.status === 304;
      return new Response(empty ? null : body, { status: response.status, headers: response.headers });
    } finally {
      answered();
    }
  };

  /**
   * A held call: no answer until the engine gives up on it (its signal aborts when the
   * lab's clock passes the call's timeout); then the request goes to the service, which
   * answers and charges it as a late answer, and the engine sees the abort.
   */
  private holdUntilAbandoned(url: string, init: RequestInit | undefined): Promise<Response> {
    const { signal, ...rest } = init ?? {};
    if (!signal) throw new Error("the lab holds only calls the engine can give up on (no signal)");
    return new Promise<Response>((_resolve, reject) => {
      const release = (): void => {
        this.track(fetch(url, rest));
        reject(signal.reason);
      };
      if (signal.aborted) release();
      else signal.addEventListener("abort", release, { once: true });
    });
  }

  private readonly inFlight = new Set<Promise<unknown>>();

  private track(request: Promise<Response>): void {
    const tracked = request.then((response) => response.arrayBuffer()).catch(() => undefined);
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  /**
   * The real request runs to its end even when the engine gives up on it (its signal
   * aborts): the engine sees the abort at once, as with fetch, while the service answers
   * and charges as a real one would, and the connection is left clean (an abandoned
   * request would hold the emulator's close for its keep-alive time).
   */
  private send(url: string, init: RequestInit | undefined): Promise<Response> {
    const { signal, ...rest } = init ?? {};
    const request = fetch(url, rest);
    this.track(request.then((response) => response.clone()));
    if (!signal) return request;
    return new Promise<Response>((resolve, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      request.then(resolve, reject);
    });
  }

  /**
   * Resolves when every request sent so far has been answered (abandoned ones included);
   * fails when they have not all ended within HANG_GUARD_MS of real time (a hang guard).
   */
  async drain(): Promise<void> {
    let guard: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<never>((_resolve, reject) => {
      guard = setTimeout(
        () =>
          reject(
            new Error(
              `the lab waited ${HANG_GUARD_MS / 1000} s of real time for ${this.inFlight.size} request(s) to the service to end; they never did`,
            ),
          ),
        HANG_GUARD_MS,
      );
    });
    try {
      while (this.inFlight.size > 0) await Promise.race([Promise.all([...this.inFlight]), hung]);
    } finally {
      clearTimeout(guard);
    }
  }

  /** An engine as the add-in builds it, on the lab's fetch, clock and timers. */
  engine(storage: KeyValueStorage = new MemoryStorage()): Engine {
    return createEngine(
      {
        fetch: this.fetch,
        storage,
        clock: { now: this.now },
        scheduler: this.clock,
        pacing: this.pacing,
        log: (level, text) => this.logs.push(`${level}: ${text}`),
      },
      {
        settings: {
          baseUrl: this.emulator.url,
          authUrl: this.emulator.url,
          callTimeoutMs: CALL_TIMEOUT_MS,
          historyTimeoutMs: CALL_TIMEOUT_MS,
        },
        batchWindowMs: 5,
        retry: RETRY,
      },
    );
  }

  async signedInEngine(storage?: KeyValueStorage): Promise<Engine> {
    const engine = this.engine(storage);
    await engine.ready();
    await engine.signIn(this.emulator.username, this.emulator.password);
    return engine;
  }

  async admin<T = unknown>(
    path: string,
    body?: unknown,
    method: "POST" | "GET" | "DELETE" = "POST",
  ): Promise<T> {
    const response = await fetch(`${this.emulator.url}/__admin/${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`admin ${path}: HTTP ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  stats(): Promise<EmulatorStats> {
    return this.admin<EmulatorStats>("stats", undefined, "GET");
  }

  /** Counters, quotas and rate windows to zero, no faults, no hooks, no recorded exchanges. */
  async resetAll(): Promise<void> {
    await this.admin("faults", undefined, "DELETE");
    await this.admin("reset", {});
    this.hooks.beforeDataCall = undefined;
    this.hooks.hold = undefined;
    this.hooks.unreachable = false;
    this.exchanges.length = 0;
    this.dataCalls = 0;
    this.logs.length = 0;
    this.waitFailures.length = 0;
  }

  /**
   * How often the service charged each code element per operation (2xx data answers
   * only), keyed "series_hist|energy_price|live|68520-8-1&c=3": History and Series Values
   * are two parts of a series, each charged once when a key needs both.
   */
  chargesPerCode(): Map<string, number> {
    const charges = new Map<string, number>();
    for (const exchange of this.exchanges) {
      if (!exchange.charged) continue;
      for (const code of exchange.codes) {
        const charged = `${exchange.operation}|${code}`;
        charges.set(charged, (charges.get(charged) ?? 0) + 1);
      }
    }
    return charges;
  }

  /**
   * How often each code element was sent per operation, answered or not (retries
   * included), keyed as chargesPerCode: a part sent again after a charged failure shows here.
   */
  sentPerCode(exchanges: readonly Exchange[] = this.exchanges): Map<string, number> {
    const sent = new Map<string, number>();
    for (const exchange of exchanges) {
      for (const code of exchange.codes) {
        const key = `${exchange.operation}|${code}`;
        sent.set(key, (sent.get(key) ?? 0) + 1);
      }
    }
    return sent;
  }

  /**
   * Resolves once `done` holds, checking after every real event-loop turn (a hook's wait
   * for answers in flight). Fails, naming `what`, when it does not hold within
   * HANG_GUARD_MS of real time: the wait is recorded in waitFailures, which the scenario
   * checks, and the hook's call fails.
   */
  async until(done: () => boolean, what: string, guardMs = HANG_GUARD_MS): Promise<void> {
    const giveUpAt = performance.now() + guardMs;
    while (!done()) {
      if (performance.now() > giveUpAt) {
        const failure = `the lab waited ${guardMs / 1000} s of real time for ${what}; it never happened`;
        this.waitFailures.push(failure);
        throw new Error(failure);
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  /** Throws when a wait of the lab gave up during the scenario. */
  expectNoWaitFailed(): void {
    if (this.waitFailures.length > 0) throw new Error(this.waitFailures.join("\n"));
  }

  async close(): Promise<void> {
    await this.drain();
    await this.emulator.close();
  }
}

export function sum(record: Record<string, number>): number {
  return Object.values(record).reduce((total, n) => total + n, 0);
}

/** Every cached data entry (key -> JSON), to prove a fault neither lost nor changed one. */
export async function cacheSnapshot(storage: KeyValueStorage): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  for (const key of await storage.keys()) {
    if (key.startsWith("pcd:data:")) snapshot.set(key, JSON.stringify(await storage.get(key)));
  }
  return snapshot;
}
