// What the engine is built from: the transport half (service client, auth), settings, the
// release calendar, storage and the clock, each through a small port so the whole engine
// can be exercised with fakes (createEngine in engine.ts plugs in the real ones).
import type { Defer } from "./change-events";
import type {
  AuthStatus,
  EngineSettings,
  EngineStats,
  ServiceReachability,
  ServiceState,
  Unsubscribe,
} from "./engine-api";
import type { Clock, KeyValueStorage, Logger } from "./environment";
import type { Scheduler } from "./scheduler";
import type { ProductId, ServiceEnvironment } from "./model";
import type { ServiceClient } from "./service-client";
import type { ExternalTokenSource } from "./token-source";

export interface AuthPort {
  signIn(who: string | ExternalTokenSource, password?: string): Promise<AuthStatus>;
  token(): Promise<string>;
  signOut(): void;
  status(): AuthStatus;
  onChange(listener: (status: AuthStatus) => void): Unsubscribe;
  /** Signs out at once when the service or token address changed (listeners hear it now). */
  checkSettings?(): void;
}

export interface SettingsPort {
  load(): Promise<EngineSettings>;
  current(): EngineSettings;
  /** current().environment without a copy of every setting (asked per cell and call). */
  environment(): ServiceEnvironment;
  /** current().releaseBusinessDay without a copy. */
  releaseBusinessDay(): number;
  update(patch: Partial<EngineSettings>): Promise<EngineSettings>;
}

export interface SchedulePort {
  serviceState(now: number, releaseBusinessDay: number, options?: { releaseDoneAt?: number }): ServiceState;
  latestReleaseStart(now: number, releaseBusinessDay: number): number;
}

export interface EngineParts {
  client: ServiceClient & {
    stats(): EngineStats;
    /** What the client's last calls observed (absent in fakes that do not observe). */
    reachability?(): ServiceReachability;
    onReachabilityChange?(listener: () => void): Unsubscribe;
    /** A team gateway answered a product's Series Info with a copy it read from the service at this time. */
    onCatalogReadAt?(listener: (product: ProductId, at: number) => void): Unsubscribe;
    holdCatalog?(product: ProductId, at: number): void;
  };
  auth: AuthPort;
  settings: SettingsPort;
  schedule: SchedulePort;
  storage: KeyValueStorage;
  /** Where the workbook's keys are kept (default: storage). */
  workbookStorage?: KeyValueStorage;
  /** The codes the workbook's cells name (EngineEnvironment.workbookCodes). */
  workbookCodes?: () => Promise<ReadonlySet<string>>;
  clock: Clock;
  /** The engine's own later work (a settling Data Limits read, the outage probe); default: real timers. */
  scheduler?: Scheduler;
  log?: Logger;
  batchWindowMs?: number;
  batchMaxWaitMs?: number;
  /** How change events are deferred to coalesce a tick (default setTimeout 0). */
  defer?: Defer;
}
