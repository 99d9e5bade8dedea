// The real engine (EngineCore) for the function tests, over an in-memory service whose
// answers a test can hold back: the functions are tested on the engine they ship with, its
// normalisation, its request keys and its messages, with only the transport replaced.
import type { SeriesRequest } from "../../../src/core/engine-api";
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
        forecasts: series.forecasts.filter((point) => this.hasForecast(code, point.month)),
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
  const harness = createHarness({ service });
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
