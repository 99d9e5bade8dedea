// The ServiceClient over HTTP: authenticated, rate-limited, retried, validated.
//
// What the statistics count (the headless runner and the benchmarks report them):
// - http[operation]: every HTTP attempt sent, retries and the retry after a 401 included,
//   counted when the request leaves (also when it then times out or finds no network);
//   http.access_token is the Auth's token requests (sign-in and renewals).
// - dataRequests: the codes of every Series Values / History attempt that got a 2xx
//   answer, i.e. what the service charges against the per-dataset allowances
//   (docs/service.md §8.2 rule 1); refused attempts (429, 5xx...) are assumed not to be charged.
import type { Auth } from "../auth";
import type { EngineSettings, EngineStats, ServiceReachability, ServiceState } from "../engine-api";
import type { Clock, FetchLike, Logger } from "../environment";
import { chargedFailure, errorMessage, isPcdError, notSentFailure, PcdError } from "../errors";
import { realScheduler, type PacingTimers, type Scheduler } from "../scheduler";
import type { CodeRequest, DataLimits, Operation, ProductId, SeriesInfo, ServiceEnvironment } from "../model";
import { serviceState } from "../schedule";
import type {
  CallOptions,
  DataCallOperation,
  SendSlot,
  SeriesAnswer,
  ServiceClient,
} from "../service-client";
import { OPERATION_LABELS, isRetryable } from "./classify";
import { buildCodesSegment } from "./codes-segment";
import { latestPossibleFinal } from "./final-month-bound";
import { MAX_ANSWER_NESTING, nestsDeeperThan } from "./json-depth";
import { operationUrl, type ServiceOperation } from "./paths";
import {
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_REQUESTS_PER_SECOND,
  createRequestGate,
  type RequestGate,
} from "./request-gate";
import { CATALOG_READ_AT_HEADER, catalogReadAt } from "./catalog-read-at";
import { SERVICE_STATUS_HEADER, serviceStatus } from "./service-status-header";
import { ReachabilityTracker } from "./reachability";
import { fetchWithoutCrossOriginRedirect } from "./redirect-guard";
import { readCapped } from "./read-capped";
import { parseRetryAfter } from "./retry-after";
import { DEFAULT_RETRY_POLICY, abortableSleep, backoffDelay, type RetryPolicy } from "./retry-policy";

/** The code that reads the service's answers (answer-readers.ts). */
export type AnswerReaders = typeof import("./answer-readers");

/** The readers once the default load brought them: a client created later needs no wait. */
let loadedReaders: AnswerReaders | undefined;

/** The readers' chunk, as the bundles load it (webpack names the chunk). */
export function loadAnswerReaders(): Promise<AnswerReaders> {
  return import(/* webpackChunkName: "answer-readers" */ "./answer-readers").then(
    (loaded) => (loadedReaders = loaded),
  );
}

/** What the client needs of Auth (Auth itself fits; tests may pass a fake). */
export type TokenSource = Pick<Auth, "token" | "renew"> & Partial<Pick<Auth, "requestCount" | "secrets">>;

export interface ServiceClientDeps {
  fetch: FetchLike;
  clock: Clock;
  /** Timers of each attempt's timeout and of the waits between retries (default: real timers). */
  scheduler?: Scheduler;
  auth: TokenSource;
  settings: () => EngineSettings;
  log?: Logger;
  retry?: Partial<RetryPolicy>;
  /** Global cap on calls in flight (default 6). */
  maxInFlight?: number;
  /** The cap through a team gateway (default 24). */
  gatewayMaxInFlight?: number;
  /** Per-operation rate (default 10 per second, docs/service.md §8.1). */
  requestsPerSecond?: number;
  /** False while signed in through a team gateway (it paces the service's calls itself). */
  paced?: () => boolean;
  /** True while signed in through a team gateway (how a 503 in a window is read: http-failure.ts). */
  throughGateway?: () => boolean;
  /** The timers of the request rate's waits (default: the real ones). */
  pacing?: PacingTimers;
  /** Waits between retries (default: a scheduler timer that the caller's signal cancels). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Where the calls' outcomes are recorded (default: the client's own; createEngine shares it with Auth). */
  reachability?: ReachabilityTracker;
  /**
   * The engine's view of the service, which knows a release seen out before the calendar's
   * end of release day: a 503 then is a passing failure, retried, not the release
   * downtime (default: the calendar alone).
   */
  serviceState?: () => ServiceState;
  /** Brings the code that reads answers (default: loadAnswerReaders). */
  loadReaders?: () => Promise<AnswerReaders>;
}

export type TransportClient = ServiceClient & {
  reserveSlot: NonNullable<ServiceClient["reserveSlot"]>;
  stats(): EngineStats;
  resetStats(): void;
  /** What the last calls observed (reachable, unreachable since, maintenance until). */
  reachability(): ServiceReachability;
  onReachabilityChange(listener: () => void): () => void;
  /** A team gateway answered a product's Series Info with a copy it read from the service at this time. */
  onCatalogReadAt(listener: (product: ProductId, at: number) => void): () => void;
  /**
   * The live catalog held for the product (loaded from storage) was read by a team gateway at
   * this time: data calls through it name it until a Series Info answer says otherwise.
   */
  holdCatalog(product: ProductId, at: number): void;
};

interface HttpAnswer {
  status: number;
  ok: boolean;
  bodyText: string;
  retryAfter: string | null;
  /** A team gateway's refusal: the status the service answered it (service-status-header.ts). */
  serviceStatus: string | null;
  /** A team gateway's Series Info: when it read its copy from the service (catalog-read-at.ts). */
  catalogReadAt: string | null;
}

function emptyHttpCounts(): Record<Operation, number> {
  return { access_token: 0, series_info: 0, series_values: 0, series_hist: 0, data_limits: 0 };
}

function parseJson(answer: HttpAnswer, label: string): unknown {
  if (nestsDeeperThan(answer.bodyText, MAX_ANSWER_NESTING)) {
    throw new PcdError(
      "protocol",
      `The ${label} answer nested deeper than any answer of the service (over ${MAX_ANSWER_NESTING} levels); PCD did not read it.`,
      { status: answer.status },
    );
  }
  try {
    return JSON.parse(answer.bodyText);
  } catch {
    throw new PcdError(
      "protocol",
      `The ${label} answer was not valid JSON (HTTP ${answer.status}, ${answer.bodyText.length} characters).`,
      { status: answer.status },
    );
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

export function createServiceClient(deps: ServiceClientDeps): TransportClient {
  const stateAt = (now: number): ServiceState =>
    deps.serviceState?.() ?? serviceState(now, deps.settings().releaseBusinessDay);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...deps.retry };
  const scheduler = deps.scheduler ?? realScheduler;
  const sleep = deps.sleep ?? ((ms: number, signal?: AbortSignal) => abortableSleep(ms, signal, scheduler));
  const random = deps.random ?? Math.random;
  const gate: RequestGate = createRequestGate(
    {
      requestsPerSecond: deps.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND,
      maxInFlight: deps.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
      ...(deps.gatewayMaxInFlight === undefined ? {} : { gatewayMaxInFlight: deps.gatewayMaxInFlight }),
      ...(deps.paced ? { paced: deps.paced } : {}),
    },
    deps.pacing,
  );
  const reachability = deps.reachability ?? new ReachabilityTracker();
  const catalogReadListeners = new Set<(product: ProductId, at: number) => void>();
  /**
   * Per product, the time a team gateway said it read the live catalog it last answered with
   * (its own clock): data calls through it name that catalog (CATALOG_READ_AT_HEADER).
   */
  const heldCatalogs = new Map<ProductId, number>();
  let http = emptyHttpCounts();
  let dataRequests = 0;
  let tokenRequestsAtReset = deps.auth.requestCount?.() ?? 0;
  let readers: AnswerReaders | undefined = deps.loadReaders ? undefined : loadedReaders;
  let loadingReaders: Promise<AnswerReaders> | undefined;

  /**
   * The answer readers, loaded once before the first call leaves: a call is never sent whose
   * answer (charged, for a data call) could not be read. A failed load sends nothing; the next
   * call loads again. A call waits for the load no longer than its own timeout (the load is
   * part of its first attempt, which the cell's watchdog allows for); the load goes on.
   */
  function answerReaders(timeoutMs: number): Promise<AnswerReaders> {
    const notLoaded = (cause: string): PcdError =>
      new PcdError(
        "network",
        `PCD could not load its code that reads the service's answers (${cause}), so it sent no call: check the connection; PCD tries again.`,
        { notSent: true },
      );
    loadingReaders ??= (deps.loadReaders ?? loadAnswerReaders)().then(
      (loaded) => (readers = loaded),
      (error: unknown) => {
        loadingReaders = undefined;
        throw notLoaded(errorMessage(error));
      },
    );
    const loading = loadingReaders;
    return new Promise<AnswerReaders>((resolve, reject) => {
      const cancelTimeout = scheduler.after(timeoutMs, () =>
        reject(notLoaded(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
      );
      loading.then(resolve, reject).finally(cancelTimeout);
    });
  }

  /**
   * One HTTP attempt with its own timeout, combined with the caller's signal. `read`: the
   * readers of answers, loaded before any call leaves (they also word a call without answer).
   */
  async function attempt(
    operation: ServiceOperation,
    url: string,
    token: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    read: AnswerReaders,
    headers: Readonly<Record<string, string>>,
  ): Promise<HttpAnswer> {
    if (signal?.aborted) throw abortReason(signal);
    const controller = new AbortController();
    let timedOut = false;
    const cancelTimeout = scheduler.after(timeoutMs, () => {
      timedOut = true;
      controller.abort();
    });
    const onCallerAbort = (): void => controller.abort();
    signal?.addEventListener("abort", onCallerAbort, { once: true });
    http[operation]++;
    try {
      const response = await fetchWithoutCrossOriginRedirect(
        deps.fetch,
        url,
        {
          method: "GET",
          headers: { ...headers, Authorization: `Bearer ${token}`, Accept: "application/json" },
          signal: controller.signal,
        },
        {
          what: `the ${OPERATION_LABELS[operation]} call`,
          credential: "your access token",
          setting: "the service address",
        },
      );
      const bodyText = await readCapped(response, MAX_ANSWER_BYTES, OPERATION_LABELS[operation]).catch(
        (error: unknown) => {
          // A success answer that is too large, or that breaks off (or times out) while its
          // body is read, was charged by the service: it is not sent again at once.
          if (!response.ok || !isDataCall(operation) || signal?.aborted) throw error;
          if (isPcdError(error)) throw chargedFailure(error);
          const cause = timedOut
            ? `no whole answer within ${Math.round(timeoutMs / 1000)} s`
            : "the connection broke";
          throw new PcdError(
            "protocol",
            `The ${OPERATION_LABELS[operation]} answer broke off while being read (${cause}); PCD did not use it.`,
            { status: response.status, charged: true },
          );
        },
      );
      return {
        status: response.status,
        ok: response.ok,
        bodyText,
        retryAfter: response.headers.get("Retry-After"),
        serviceStatus: response.headers.get(SERVICE_STATUS_HEADER),
        catalogReadAt: response.headers.get(CATALOG_READ_AT_HEADER),
      };
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (error instanceof PcdError) throw error; // already classified (the answer's body)
      throw read.classifyFetchRejection(error, {
        operation,
        url,
        timedOutAfterMs: timedOut ? timeoutMs : null,
        // A runtime's rejection can quote the request (an invalid header holds the token).
        secrets: [token, ...(deps.auth.secrets?.() ?? [])],
      });
    } finally {
      cancelTimeout();
      signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  /**
   * One attempt through the rate gate (or in a slot the caller already holds): the HTTP
   * answer, or the network/timeout failure.
   */
  async function send(
    operation: ServiceOperation,
    url: string,
    token: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    slot: SendSlot | undefined,
    read: AnswerReaders,
    headers: Readonly<Record<string, string>>,
  ): Promise<HttpAnswer | PcdError> {
    const request = (): Promise<HttpAnswer> =>
      attempt(operation, url, token, timeoutMs, signal, read, headers);
    try {
      const answer = await (slot ? slot.run(request) : gate.run(operation, request));
      deps.log?.("debug", `${OPERATION_LABELS[operation]}: HTTP ${answer.status} from ${url}`);
      return answer;
    } catch (error) {
      if (error instanceof PcdError && (error.kind === "network" || error.kind === "timeout")) return error;
      throw error;
    }
  }

  /** Whether a failure may be retried, and after how long (null: give up now). */
  function retryDelay(
    operation: ServiceOperation,
    error: PcdError,
    retriesSoFar: number,
    stateAvailable: boolean,
    elapsedMs: number,
  ): number | null {
    if (!isRetryable(error) || retriesSoFar >= policy.maxRetries) return null;
    // A data call that timed out may have been answered, and charged, after we stopped
    // waiting: sending it again at once could spend the same data requests twice. The
    // cell retries later on its own schedule instead.
    if (error.kind === "timeout" && isDataCall(operation)) return null;
    const retryAfterMs = error.details.retryAfterMs;
    // Known downtime or a long Retry-After: fail fast so cells fall back to the cache.
    if (error.kind === "unavailable" && !stateAvailable) return null;
    if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return null;
    const delay = retryAfterMs ?? backoffDelay(retriesSoFar, policy, random);
    // A retry that would start after the retry window is not sent: the call ends within
    // callDurationBoundMs, which the cell watchdog covers.
    if (elapsedMs + delay > policy.retryWindowMs) return null;
    return delay;
  }

  async function call<T>(
    operation: ServiceOperation,
    url: string,
    timeoutMs: number,
    options: CallOptions | undefined,
    onSuccess: (body: unknown, read: AnswerReaders) => T,
    codesCharged: number,
    /** A successful answer as it came, before it is read (Series Info: a gateway's read time). */
    onAnswer?: (answer: HttpAnswer) => void,
    /** Sent with every attempt besides the token (a data call through a gateway: its catalog's time). */
    headers: Readonly<Record<string, string>> = {},
  ): Promise<T> {
    const signal = options?.signal;
    const label = OPERATION_LABELS[operation];
    // The caller's slot carries the first attempt only; retries queue at the gate again.
    let slot = options?.slot;
    const startedAt = deps.clock.now();
    let retries = 0;
    let renewed = false;
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      let token: string;
      try {
        token = await deps.auth.token();
      } catch (caught) {
        // A token renewal that got no answer is the service being unreachable too; this call
        // never left, so the service charged nothing for it.
        if (isPcdError(caught) && (caught.kind === "network" || caught.kind === "timeout")) {
          reachability.failed(deps.clock.now(), caught);
          throw notSentFailure(caught);
        }
        throw caught;
      }
      const read = readers ?? (await answerReaders(timeoutMs));
      let outcome: HttpAnswer | PcdError;
      try {
        outcome = await send(operation, url, token, timeoutMs, signal, slot, read, headers);
      } catch (caught) {
        if (isPcdError(caught) && caught.details.charged === true) dataRequests += codesCharged;
        throw caught;
      }
      slot = undefined;
      let error: PcdError;
      if (outcome instanceof PcdError) {
        error = outcome;
        reachability.failed(deps.clock.now(), error);
      } else if (outcome.ok) {
        reachability.answered(deps.clock.now(), outcome.status);
        onAnswer?.(outcome);
        if (!isDataCall(operation)) return onSuccess(parseJson(outcome, label), read);
        dataRequests += codesCharged;
        try {
          return onSuccess(parseJson(outcome, label), read);
        } catch (caught) {
          // The service charged the call though PCD cannot use its answer: the batcher and
          // the series sync must not treat it as free to send again.
          throw isPcdError(caught) ? chargedFailure(caught) : caught;
        }
      } else if (outcome.status === 401 && !renewed) {
        reachability.answered(deps.clock.now(), outcome.status);
        // The token expired early or was revoked: renew once and try once more.
        renewed = true;
        // Calls refused together renew together: when another call has already
        // replaced the refused token, retry with its token instead of renewing again.
        if ((await deps.auth.token()) === token) {
          deps.log?.("info", `${label}: HTTP 401, renewing the access token once.`);
          await deps.auth.renew();
        }
        continue;
      } else {
        const now = deps.clock.now();
        error = read.classifyHttpFailure(
          {
            status: outcome.status,
            bodyText: outcome.bodyText,
            retryAfterMs: parseRetryAfter(outcome.retryAfter, now),
            serviceStatus: serviceStatus(outcome.serviceStatus),
          },
          {
            operation,
            now,
            serviceState: stateAt(now),
            secrets: [token, ...(deps.auth.secrets?.() ?? [])],
            throughGateway: deps.throughGateway?.() === true,
          },
        );
        reachability.answered(now, outcome.status, error);
      }
      const now = deps.clock.now();
      const state = stateAt(now);
      const delay = retryDelay(operation, error, retries, state.available, now - startedAt);
      // The message stays the cause alone: the cell, the refresh summary and the outage
      // notice say what happens next (cells try again later), which a count of the
      // retries already made would contradict.
      if (delay === null || options?.once === true) throw error;
      retries++;
      deps.log?.(
        "info",
        `${label}: ${error.kind}${error.details.status ? ` (HTTP ${error.details.status})` : ""}; retry ${retries} of ${policy.maxRetries} in ${delay} ms.`,
      );
      await sleep(delay, signal);
    }
  }

  function dataCall(
    operation: "series_values" | "series_hist",
    environment: ServiceEnvironment,
    product: ProductId,
    codes: readonly CodeRequest[],
    options: CallOptions | undefined,
  ): Promise<SeriesAnswer> {
    let segment: string;
    try {
      segment = buildCodesSegment(codes);
    } catch (error) {
      options?.slot?.release();
      return Promise.reject(error);
    }
    const settings = deps.settings();
    const requested = new Set(codes.map((request) => request.code));
    const timeoutMs = operation === "series_hist" ? settings.historyTimeoutMs : settings.callTimeoutMs;
    // Through a team gateway, the catalog this engine holds is the one its answers must match:
    // another instance of the gateway, with an older copy, reads the newer one first.
    const held =
      environment === "live" && deps.throughGateway?.() === true ? heldCatalogs.get(product) : undefined;
    const headers: Record<string, string> =
      held === undefined ? {} : { [CATALOG_READ_AT_HEADER]: new Date(held).toISOString() };
    // A call that ends before its first attempt (no token, aborted) frees the caller's slot.
    return call(
      operation,
      operationUrl(settings, environment, product, operation, segment),
      timeoutMs,
      options,
      (body, read) =>
        read.parseSeriesValuesList(
          body,
          operation,
          requested,
          deps.log,
          latestPossibleFinal(deps.clock.now()),
        ),
      codes.length,
      undefined,
      headers,
    ).finally(() => options?.slot?.release());
  }

  return {
    seriesInfo(
      environment: ServiceEnvironment,
      product: ProductId,
      options?: CallOptions,
    ): Promise<SeriesInfo[]> {
      const settings = deps.settings();
      return call(
        "series_info",
        operationUrl(settings, environment, product, "series_info"),
        settings.callTimeoutMs,
        options,
        (body, read) => read.parseSeriesInfoList(body, product, deps.log),
        0,
        (answer) => {
          const readAt = catalogReadAt(answer.catalogReadAt);
          if (readAt === null) return;
          if (environment === "live") heldCatalogs.set(product, readAt);
          for (const listener of catalogReadListeners) listener(product, readAt);
        },
      );
    },
    reserveSlot: (operation) => gate.reserve(operation),
    seriesValues: (environment, product, codes, options) =>
      dataCall("series_values", environment, product, codes, options),
    seriesHistory: (environment, product, codes, options) =>
      dataCall("series_hist", environment, product, codes, options),
    dataLimits(product: ProductId, options?: CallOptions): Promise<DataLimits> {
      const settings = deps.settings();
      return call(
        "data_limits",
        operationUrl(settings, "live", product, "data_limits"),
        settings.callTimeoutMs,
        options,
        (body, read) => read.parseDataLimits(body, product, deps.log),
        0,
      );
    },
    stats(): EngineStats {
      return {
        http: { ...http, access_token: (deps.auth.requestCount?.() ?? 0) - tokenRequestsAtReset },
        dataRequests,
      };
    },
    reachability: () => reachability.current(),
    onReachabilityChange: (listener) => reachability.onChange(listener),
    holdCatalog: (product, at) => {
      if (!heldCatalogs.has(product)) heldCatalogs.set(product, at);
    },
    onCatalogReadAt: (listener) => {
      catalogReadListeners.add(listener);
      return () => catalogReadListeners.delete(listener);
    },
    resetStats(): void {
      http = emptyHttpCounts();
      dataRequests = 0;
      tokenRequestsAtReset = deps.auth.requestCount?.() ?? 0;
    },
  };
}

/**
 * The largest answer the client reads: a full catalog is about 1 MB and a 40-code History
 * far less, so 16 MB is generous, and a broken or hostile service cannot make the add-in
 * hold hundreds of MB.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

function isDataCall(operation: ServiceOperation): operation is DataCallOperation {
  return operation === "series_values" || operation === "series_hist";
}
