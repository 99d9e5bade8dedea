// The real engine (EngineCore) for the function tests, over an in-memory service whose
// answers a test can hold back: the functions are tested on the engine they ship with, its
// normalisation, its request keys and its messages, with only the transport replaced.
import type { Engine, SeriesRequest, Unsubscribe } from "../../../src/core/engine-api";
import { LIMITS_MAX_AGE_MS } from "../../../src/core/engine-core";
import type {
  CodeRequest,
  DataLimits,
  Month,
  ProductId,
  SeriesInfo,
  SeriesValues,
  ServiceEnvironment,
} from "../../../src/core/model";
import { createHarness, type Harness } from "../../core/support/engine-harness";
import { FakeService } from "../../core/support/fake-service";
import { seriesInfo } from "../../core/support/series-fixtures";
import { PointColumns } from "../../../src/core/point-columns";

/**
 * The in-memory service, with answers that can be held: a held code's Series Values and
 * History calls wait until it is released (a slow or hanging service, without timers).
 */
export class DeferredService extends FakeService {
  private readonly held = new Map<string, Array<() => void>>();
  /** Whether the service has a forecast of the code for the month (the in-memory one has six). */
  hasForecast: (code: string, month: Month) => boolean = () => true;

  /** Calls for this code wait from now on, until release(code). */
  hold(code: string): void {
    if (!this.held.has(code)) this.held.set(code, []);
  }

  /** The held calls for the code go on; later calls are answered at once. */
  release(code: string): void {
    const waiting = this.held.get(code) ?? [];
    this.held.delete(code);
    for (const resume of waiting) resume();
  }

  override async seriesValues(
    environment: ServiceEnvironment,
    product: ProductId,
    codes: readonly CodeRequest[],
  ): Promise<Map<string, SeriesValues>> {
    await this.waitFor(codes);
    const answer = await super.seriesValues(environment, product, codes);
    for (const [code, series] of answer)
      answer.set(code, {
        ...series,
        forecasts: PointColumns.fromPoints(
          series.forecasts.toPoints().filter((point) => this.hasForecast(code, point.month)),
        ),
      });
    return answer;
  }

  override async seriesHistory(
    environment: ServiceEnvironment,
    product: ProductId,
    codes: readonly CodeRequest[],
  ): Promise<Map<string, SeriesValues>> {
    await this.waitFor(codes);
    return super.seriesHistory(environment, product, codes);
  }

  private async waitFor(codes: readonly CodeRequest[]): Promise<void> {
    for (const { code } of codes) {
      const waiting = this.held.get(code);
      if (waiting) await new Promise<void>((resume) => waiting.push(resume));
    }
  }
}

export interface SeriesSetup {
  info: Partial<SeriesInfo> & { code: string };
  /** Final values by month; the series starts at the first of them. */
  finals: Record<Month, number>;
  /** Forecast values by month (the months after the last final). */
  forecasts?: Record<Month, number>;
}

export interface RealEngine extends Harness {
  service: DeferredService;
  /** A revision: the service answers the value from now on and its Series Info says so (updated_at). */
  revise(code: string, month: Month, value: number): void;
  /** A refresh of every series the workbook showed, its change events delivered. */
  refresh(): Promise<void>;
  /** The engine's request for a code with its default currency and unit. */
  request(code: string): Promise<SeriesRequest>;
}

/**
 * The real engine over a DeferredService holding `series`. Each series' finals run from its
 * first month to `lastAvailableFinal` (the last month given), its forecasts follow.
 */
export function realEngine(
  series: readonly SeriesSetup[],
  limits: Partial<Record<ProductId, DataLimits>> = {},
  options: { deliverEvents?: "on tick" | "by itself" } = {},
): RealEngine {
  const service = new DeferredService();
  const values = new Map<string, Map<Month, number>>();
  for (const { info, finals, forecasts = {} } of series) {
    const months = Object.keys(finals).sort();
    const first = months[0];
    const last = months[months.length - 1];
    service.addSeries(
      seriesInfo({
        availableCurrencies: ["EUR", "USD"],
        availableUnits: ["MWh", "kWh"],
        hasForecast: Object.keys(forecasts).length > 0,
        ...(last === undefined ? {} : { lastAvailableFinal: last }),
        ...info,
      }),
    );
    if (first !== undefined) service.firstMonth.set(info.code, first);
    values.set(info.code, new Map([...Object.entries(finals), ...Object.entries(forecasts)]));
  }
  // The in-memory service answers a forecast as -valueOf(month): store forecasts negated.
  service.valueOf = (code, month) => {
    const known = values.get(code)?.get(month);
    const isForecast = month > (service.info(code)?.lastAvailableFinal ?? "9999-12");
    if (known === undefined) return 0;
    return isForecast ? -known : known;
  };
  service.hasForecast = (code, month) => values.get(code)?.has(month) ?? false;
  for (const [product, allowance] of Object.entries(limits))
    service.limits.set(product as ProductId, allowance);
  // "by itself": change events come a timer tick later, as in the add-in (for code that
  // waits on them, like the headless runner); "on tick": when the test calls tick().
  const harness = createHarness({
    service,
    ...(options.deliverEvents === "by itself" ? { defer: (run: () => void) => setTimeout(run, 0) } : {}),
  });
  let revisions = 0;
  return {
    ...harness,
    service,
    revise: (code, month, value) => {
      const known = values.get(code) ?? new Map<Month, number>();
      known.set(month, value);
      values.set(code, known);
      revisions += 1;
      service.updateSeries(code, { updatedAt: `2026-11-${String(4 + revisions).padStart(2, "0")}` });
    },
    refresh: async () => {
      await harness.engine.refreshAll();
      harness.tick();
    },
    request: (code) => harness.engine.resolve(code, null, null),
  };
}

/**
 * The engine's events for cell lifecycle tests, each made through the engine's public calls:
 * a revision found by a refresh (key changes), a refresh that found nothing (a catalog
 * change), a Data Limits reading (the allowances alone).
 */
export interface EngineEvents {
  h: RealEngine;
  /** The request key of a named series, cached and part of the workbook (a refresh checks it). */
  key(name: string): string;
  /** The named series are revised and a refresh finds it: one delivery of their key changes. */
  change(...names: string[]): Promise<void>;
  /** A refresh that changed no data: meta and catalog listeners hear it. */
  meta(): Promise<void>;
  /** The engine reads Data Limits: meta listeners hear it, catalog listeners do not. */
  limits(): Promise<void>;
}

/** A real engine holding one series per name (codes 1-1-1, 2-1-1, ...), each cached. */
export async function engineEvents(names: readonly string[] = []): Promise<EngineEvents> {
  const codes = new Map(names.map((name, index) => [name, `${index + 1}-1-1`]));
  const h = realEngine(
    [...codes.values()].map((code) => ({ info: { code }, finals: { "2026-09": 1, "2026-10": 2 } })),
    { energy_price: { Germany: { remaining: 500, total: 500 } } },
  );
  const keys = new Map<string, string>();
  for (const [name, code] of codes) {
    const request = await h.request(code);
    await h.engine.getSeries(request);
    keys.set(name, request.key);
  }
  h.tick();
  let revision = 2;
  return {
    h,
    key: (name) => {
      const key = keys.get(name);
      if (key === undefined) throw new Error(`no series named ${name}`);
      return key;
    },
    change: async (...changed) => {
      revision += 1;
      for (const name of changed) h.revise(codes.get(name) ?? "", "2026-10", revision);
      await h.refresh();
    },
    meta: () => h.refresh(),
    limits: async () => {
      h.clock.now += LIMITS_MAX_AGE_MS + 1;
      await h.engine.limitsOf("energy_price");
      h.tick();
    },
  };
}

/** What cells hold of an engine: its listeners, the keys listened to and the keys retained. */
export interface EngineUse {
  listenerCount(): number;
  watchedKeys(): string[];
  held: Map<string, number>;
}

/** Counts, through the engine's own subscription calls, what cells hold of it. */
export function observeUse(engine: Engine): EngineUse {
  let listeners = 0;
  const watched = new Map<string, number>();
  const held = new Map<string, number>();
  const counted =
    <A extends unknown[]>(subscribe: (...args: A) => Unsubscribe, onAdd?: (...args: A) => () => void) =>
    (...args: A): Unsubscribe => {
      const unsubscribe = subscribe(...args);
      listeners += 1;
      const onRemove = onAdd?.(...args);
      let done = false;
      return () => {
        if (!done) {
          done = true;
          listeners -= 1;
          onRemove?.();
        }
        unsubscribe();
      };
    };
  const tally = (map: Map<string, number>, key: string) => {
    map.set(key, (map.get(key) ?? 0) + 1);
    return () => {
      const left = (map.get(key) ?? 1) - 1;
      if (left > 0) map.set(key, left);
      else map.delete(key);
    };
  };
  engine.onKeyChange = counted(engine.onKeyChange.bind(engine), (key: string, _listener: () => void) =>
    tally(watched, key),
  );
  engine.onMetaChange = counted(engine.onMetaChange.bind(engine));
  engine.onCatalogChange = counted(engine.onCatalogChange.bind(engine));
  engine.onAuthChange = counted(engine.onAuthChange.bind(engine));
  engine.onChange = counted(engine.onChange.bind(engine));
  const retain = engine.retainKey.bind(engine);
  engine.retainKey = (key, ...rest) => {
    const release = retain(key, ...rest);
    const untally = tally(held, key);
    let released = false;
    return () => {
      if (!released) {
        released = true;
        untally();
      }
      release();
    };
  };
  return { listenerCount: () => listeners, watchedKeys: () => [...watched.keys()], held };
}
