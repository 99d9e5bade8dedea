// createEngine: the one way hosts (Excel's shared runtime, the headless runner, tests)
// obtain an engine. It wires the transport half (settings, auth, schedule, HTTP client)
// to the data half (engine-core).
import { Auth } from "./auth";
import { resolveTuning, type EngineTuning } from "./defaults";
import { assembleEngine } from "./engine-core";
import type { Engine, EngineSettings, ServiceState } from "./engine-api";
import type { EngineEnvironment } from "./environment";
import { createServiceClient } from "./http/service-client-impl";
import type { RetryPolicy } from "./http/retry-policy";
import { observeTokenFailures, ReachabilityTracker } from "./http/reachability";
import type { ServiceEnvironment } from "./model";
import { latestReleaseStart, serviceState } from "./schedule";
import { DEFAULT_SETTINGS, SettingsStore, validateSettings } from "./settings";

export interface CreateEngineOptions {
  /**
   * The host's own defaults under the stored settings (e.g. the service and token
   * addresses a build was made for). Stored and user settings win over them.
   */
  defaults?: Partial<EngineSettings>;
  /** Settings applied over the stored ones at start (not persisted; e.g. the headless runner's service URL). */
  settings?: Partial<EngineSettings>;
  /** Idle window of the batcher (default 20 ms); the same as tuning.batchWindowMs. */
  batchWindowMs?: number;
  /**
   * Tuning values (src/core/defaults.ts) that differ from the defaults: the batcher's
   * windows, the request rate and the calls in flight. Checked here: a bad value fails
   * when the engine is built, naming the option.
   */
  tuning?: Partial<
    Pick<
      EngineTuning,
      "batchWindowMs" | "batchMaxWaitMs" | "requestsPerSecond" | "maxInFlight" | "gatewayMaxInFlight"
    >
  >;
  /** Retry policy of the HTTP client (tests shorten the backoff). */
  retry?: Partial<RetryPolicy>;
}

export function createEngine(env: EngineEnvironment, options: CreateEngineOptions = {}): Engine {
  const tuning = resolveTuning({ batchWindowMs: options.batchWindowMs, ...options.tuning });
  const defaults = validateSettings({ ...options.defaults });
  const store = new SettingsStore(env.storage, env.log, {
    ...DEFAULT_SETTINGS,
    ...defaults,
    productPaths: { ...DEFAULT_SETTINGS.productPaths, ...defaults.productPaths },
  });
  // Validated like a user's change: a bad start-up address fails here, not at the first cell.
  const overrides: Partial<EngineSettings> = validateSettings({ ...options.settings });
  const settings = {
    load: async () => {
      await store.load();
      return settings.current();
    },
    current: (): EngineSettings => ({ ...store.current(), ...overrides }),
    // Asked per cell and per call: read without building the whole settings twice over.
    environment: (): ServiceEnvironment => overrides.environment ?? store.environment(),
    releaseBusinessDay: (): number => overrides.releaseBusinessDay ?? store.releaseBusinessDay(),
    update: async (patch: Partial<EngineSettings>) => {
      // A setting the user changes now wins over the start-up override.
      for (const field of Object.keys(patch)) delete overrides[field as keyof EngineSettings];
      await store.update(patch);
      return settings.current();
    },
  };
  // One record of what the calls saw, for the data calls and the token calls alike.
  const reachability = new ReachabilityTracker();
  // The calls judge a 503 by the engine's view of the service (it knows a release seen out
  // early); the engine is assembled after them, so the view is looked up when asked.
  const assembled: { engine?: Engine } = {};
  const currentState = (): ServiceState =>
    assembled.engine?.serviceState() ?? serviceState(env.clock.now(), settings.releaseBusinessDay());
  const auth = new Auth({
    fetch: observeTokenFailures(env.fetch, reachability, () => env.clock.now()),
    clock: env.clock,
    scheduler: env.scheduler,
    settings: settings.current,
    log: env.log,
    serviceState: currentState,
  });
  const client = createServiceClient({
    reachability,
    fetch: env.fetch,
    clock: env.clock,
    scheduler: env.scheduler,
    pacing: env.pacing,
    auth,
    settings: settings.current,
    log: env.log,
    retry: options.retry,
    requestsPerSecond: tuning.requestsPerSecond,
    maxInFlight: tuning.maxInFlight,
    gatewayMaxInFlight: tuning.gatewayMaxInFlight,
    paced: () => auth.status().gateway === null,
    throughGateway: () => auth.status().gateway !== null,
    serviceState: currentState,
  });
  const engine = assembleEngine({
    client,
    auth,
    settings,
    schedule: { serviceState, latestReleaseStart },
    storage: env.storage,
    workbookStorage: env.workbookStorage,
    workbookCodes: env.workbookCodes,
    clock: env.clock,
    ...(env.scheduler ? { scheduler: env.scheduler } : {}),
    log: env.log,
    batchWindowMs: tuning.batchWindowMs,
    batchMaxWaitMs: tuning.batchMaxWaitMs,
  });
  assembled.engine = engine;
  return engine;
}
