// An EngineCore wired to fakes: the FakeService, a switchable auth, in-memory settings,
// a scriptable schedule and a manual clock. Change events are delivered on tick().
import type { AuthStatus, EngineSettings, ServiceState } from "../../../src/core/engine-api";
import { EngineCore } from "../../../src/core/engine-core";
import type { AuthPort, SchedulePort, SettingsPort } from "../../../src/core/engine-parts";
import type { KeyValueStorage } from "../../../src/core/environment";
import { PcdError } from "../../../src/core/errors";
import { CATALOG_MAX_AGE_MS } from "../../../src/core/catalog";
import type { ProductId, ServiceEnvironment } from "../../../src/core/model";
import { MemoryStorage } from "../../../src/core/storage";
import { FakeService } from "./fake-service";

export const NOW = Date.UTC(2026, 10, 20, 12);
export const RELEASE_START = Date.UTC(2026, 10, 4, 12);
export const NEXT_RELEASE = Date.UTC(2026, 11, 3, 12);

export class FakeAuth implements AuthPort {
  signedIn = true;
  /** Signed in through a team gateway (its token names the member); null: the service itself. */
  gateway: { member: string } | null = null;
  private listeners = new Set<(status: AuthStatus) => void>();
  async signIn(username: string): Promise<AuthStatus> {
    this.signedIn = true;
    const status = { ...this.status(), username };
    for (const listener of this.listeners) listener(status);
    return status;
  }
  async token(): Promise<string> {
    if (!this.signedIn)
      throw new PcdError("not_signed_in", "Not signed in: sign in to PCD in the task pane.");
    return "token";
  }
  signOut(): void {
    this.signedIn = false;
  }
  /** An auth change that is not a sign-in (a token renewed): listeners hear the status. */
  notify(patch: Partial<AuthStatus>): void {
    const status = { ...this.status(), ...patch };
    for (const listener of this.listeners) listener(status);
  }
  status(): AuthStatus {
    return {
      signedIn: this.signedIn,
      username: "dev@example.com",
      environment: "live",
      tokenExpiresAt: null,
      gateway: this.gateway,
    };
  }
  onChange(listener: (status: AuthStatus) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class FakeSettings implements SettingsPort {
  value: EngineSettings = {
    environment: "live",
    baseUrl: "http://127.0.0.1:1",
    authUrl: "http://127.0.0.1:1",
    productPaths: {
      energy_price: "energy_price",
      commodity_price: "commodity_price",
      industry_economics: "industry_economics",
    },
    releaseBusinessDay: 3,
    autoRefreshAfterRelease: false,
    callTimeoutMs: 130_000,
    historyTimeoutMs: 130_000,
  };
  async load(): Promise<EngineSettings> {
    return this.current();
  }
  current(): EngineSettings {
    return { ...this.value };
  }
  environment(): ServiceEnvironment {
    return this.value.environment;
  }
  releaseBusinessDay(): number {
    return this.value.releaseBusinessDay;
  }
  async update(patch: Partial<EngineSettings>): Promise<EngineSettings> {
    this.value = { ...this.value, ...patch };
    return this.current();
  }
}

export class FakeSchedule implements SchedulePort {
  down: { reason: "maintenance" | "release"; until: number } | null = null;
  releaseStart = RELEASE_START;
  releaseDoneAt: number | undefined;
  /** A release day's downtime by the clock (from its start to its deadline), besides `down`. */
  releaseWindow: { start: number; until: number } | null = null;
  serviceState(now: number, _day: number, options: { releaseDoneAt?: number } = {}): ServiceState {
    this.releaseDoneAt = options.releaseDoneAt;
    const window = this.releaseWindow;
    const inWindow = window !== null && now >= window.start && now < window.until;
    const scheduled = this.down ?? (inWindow ? { reason: "release" as const, until: window.until } : null);
    // As the real calendar: a release is out only by an answer within its day's downtime.
    const done = options.releaseDoneAt;
    const released =
      scheduled?.reason === "release" &&
      done !== undefined &&
      done <= now &&
      (this.down !== null || window === null || done >= window.start);
    const down = released ? null : scheduled;
    return {
      available: down === null,
      reason: down?.reason ?? null,
      until: down?.until ?? null,
      nextRelease: NEXT_RELEASE,
      nextMaintenance: Date.UTC(2026, 10, 25, 12),
    };
  }
  /** The release before releaseStart, for instants before it (unset: releaseStart for every instant). */
  previousReleaseStart: number | undefined;
  latestReleaseStart(now: number): number {
    return now < this.releaseStart && this.previousReleaseStart !== undefined
      ? this.previousReleaseStart
      : this.releaseStart;
  }
}

export interface Harness {
  engine: EngineCore;
  service: FakeService;
  auth: FakeAuth;
  settings: FakeSettings;
  schedule: FakeSchedule;
  storage: KeyValueStorage;
  clock: { now: number };
  logs: string[];
  /** Delivers queued change events. */
  tick(): void;
}

/**
 * Lets a day pass (the catalog's age limit) and reads a product's catalog through the
 * engine's public API: what the service now says of its series (a release, an update) is
 * what the engine plans from, as when a user opens the workbook the next day.
 */
export async function rereadCatalog(h: Harness, product: ProductId = "energy_price"): Promise<void> {
  h.clock.now += CATALOG_MAX_AGE_MS;
  await h.engine.catalog(product);
}

export function createHarness(
  options: {
    service?: FakeService;
    storage?: KeyValueStorage;
    /** Delivers change events by itself (e.g. on a timer) instead of on tick(). */
    defer?: (run: () => void) => void;
    /** The codes the workbook's cells name (EngineEnvironment.workbookCodes). */
    workbookCodes?: () => Promise<ReadonlySet<string>>;
  } = {},
): Harness {
  const service = options.service ?? new FakeService();
  const storage = options.storage ?? new MemoryStorage();
  const auth = new FakeAuth();
  const settings = new FakeSettings();
  const schedule = new FakeSchedule();
  const clock = { now: NOW };
  const logs: string[] = [];
  const deferred: Array<() => void> = [];
  const engine = new EngineCore({
    client: service,
    auth,
    settings,
    schedule,
    storage,
    clock: { now: () => clock.now },
    log: (level, text) => logs.push(`${level}: ${text}`),
    batchWindowMs: 1,
    defer: options.defer ?? ((run) => deferred.push(run)),
    workbookCodes: options.workbookCodes,
  });
  return {
    engine,
    service,
    auth,
    settings,
    schedule,
    storage,
    clock,
    logs,
    tick: () => deferred.splice(0).forEach((run) => run()),
  };
}
