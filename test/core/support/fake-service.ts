// A scriptable in-memory ServiceClient for the data half's unit tests: it answers from
// a catalog and a value function, records every call, and can be told to fail.
import type { EngineStats } from "../../../src/core/engine-api";
import { PcdError } from "../../../src/core/errors";
import type {
  CodeRequest,
  DataLimits,
  Month,
  ProductId,
  SeriesInfo,
  SeriesValues,
  ServiceEnvironment,
} from "../../../src/core/model";
import { monthIndex } from "../../../src/core/months";
import type { ServiceClient } from "../../../src/core/service-client";
import { monthAt, points } from "./series-fixtures";
import { PointColumns } from "../../../src/core/point-columns";

export interface RecordedCall {
  operation: "series_info" | "series_values" | "series_hist" | "data_limits";
  /** The environment the caller named (Data Limits: always live). */
  environment: ServiceEnvironment;
  product: ProductId;
  codes: CodeRequest[];
}

type Failure = (call: RecordedCall) => PcdError | undefined;

/**
 * The short names the fake applies for the IDs its series offer (docs/service.md §2.4, typed
 * here on their own): an answer names what it applied, as the service's does.
 */
const APPLIED_CURRENCY: Readonly<Record<number, string>> = { 1: "USD", 3: "EUR", 9: "GBP" };
const APPLIED_UNIT: Readonly<Record<number, string>> = { 4: "kWh", 7: "MWh", 31: "GJ" };

export class FakeService implements ServiceClient {
  readonly calls: RecordedCall[] = [];
  readonly catalog = new Map<ProductId, SeriesInfo[]>();
  readonly limits = new Map<ProductId, DataLimits>();
  /** Value of a code in a month (tests change it to simulate revisions). */
  valueOf: (code: string, month: Month) => number = (code, month) => monthIndex(month) + code.length;
  /**
   * How many months before last_available_final History ends: 13 on the real service
   * (right before the Series Values window, docs/service.md), 0 by the description's letter.
   */
  historyEndsMonthsEarly = 13;
  /** Whether History carries the forecasts (the real service's does not). */
  historyForecasts = false;

  /** The description's letter: History reaches the latest month and has the forecasts. */
  useSpecShape(): this {
    this.historyEndsMonthsEarly = 0;
    this.historyForecasts = true;
    return this;
  }
  /** First month of a series that started after 2007-01 (a young series). */
  readonly firstMonth = new Map<string, Month>();
  /** Codes the service leaves out of its answers. */
  readonly missing = new Set<string>();
  failures: Failure[] = [];

  addSeries(...series: SeriesInfo[]): void {
    for (const info of series)
      this.catalog.set(info.product, [...(this.catalog.get(info.product) ?? []), info]);
  }

  info(code: string): SeriesInfo | undefined {
    for (const list of this.catalog.values()) {
      const found = list.find((info) => info.code === code);
      if (found) return found;
    }
    return undefined;
  }

  updateSeries(code: string, patch: Partial<SeriesInfo>): void {
    for (const [product, list] of this.catalog) {
      this.catalog.set(
        product,
        list.map((info) => (info.code === code ? { ...info, ...patch } : info)),
      );
    }
  }

  failWith(failure: Failure): void {
    this.failures.push(failure);
  }

  dataCalls(): RecordedCall[] {
    return this.calls.filter(
      (call) => call.operation === "series_values" || call.operation === "series_hist",
    );
  }

  codesSent(): number {
    return this.dataCalls().reduce((sum, call) => sum + call.codes.length, 0);
  }

  stats(): EngineStats {
    const count = (operation: RecordedCall["operation"]): number =>
      this.calls.filter((call) => call.operation === operation).length;
    return {
      http: {
        access_token: 0,
        series_info: count("series_info"),
        series_values: count("series_values"),
        series_hist: count("series_hist"),
        data_limits: count("data_limits"),
      },
      dataRequests: this.codesSent(),
    };
  }

  /** Per product, the time a team gateway would say it read the catalog it answers with. */
  readonly catalogReadAt = new Map<ProductId, number>();
  private readonly catalogReadListeners = new Set<(product: ProductId, at: number) => void>();

  onCatalogReadAt(listener: (product: ProductId, at: number) => void): () => void {
    this.catalogReadListeners.add(listener);
    return () => this.catalogReadListeners.delete(listener);
  }

  async seriesInfo(environment: ServiceEnvironment, product: ProductId): Promise<SeriesInfo[]> {
    this.record({ operation: "series_info", environment, product, codes: [] });
    const readAt = this.catalogReadAt.get(product);
    if (readAt !== undefined) for (const listener of this.catalogReadListeners) listener(product, readAt);
    return structuredClone(this.catalog.get(product) ?? []);
  }

  async seriesValues(
    environment: ServiceEnvironment,
    product: ProductId,
    codes: readonly CodeRequest[],
  ): Promise<Map<string, SeriesValues>> {
    this.record({ operation: "series_values", environment, product, codes: [...codes] });
    return this.answer(codes, (last) => ({ from: monthAt(monthIndex(last) - 12), to: last }), true);
  }

  async seriesHistory(
    environment: ServiceEnvironment,
    product: ProductId,
    codes: readonly CodeRequest[],
  ): Promise<Map<string, SeriesValues>> {
    this.record({ operation: "series_hist", environment, product, codes: [...codes] });
    return this.answer(
      codes,
      (last) => ({ from: "2007-01", to: monthAt(monthIndex(last) - this.historyEndsMonthsEarly) }),
      this.historyForecasts,
    );
  }

  async dataLimits(product: ProductId): Promise<DataLimits> {
    this.record({ operation: "data_limits", environment: "live", product, codes: [] });
    return structuredClone(this.limits.get(product) ?? {});
  }

  private record(call: RecordedCall): void {
    this.calls.push(call);
    for (const failure of this.failures) {
      const error = failure(call);
      if (error) throw error;
    }
  }

  private answer(
    codes: readonly CodeRequest[],
    window: (last: Month) => { from: Month; to: Month },
    withForecasts: boolean,
  ): Map<string, SeriesValues> {
    const answer = new Map<string, SeriesValues>();
    for (const request of codes) {
      const info = this.info(request.code);
      if (!info || this.missing.has(request.code) || !info.lastAvailableFinal) continue;
      const span = window(info.lastAvailableFinal);
      const start = this.firstMonth.get(request.code);
      const from = start !== undefined && monthIndex(start) > monthIndex(span.from) ? start : span.from;
      const { to } = span;
      const factor = request.currencyId === null ? 1 : request.currencyId * 10;
      const forecastFrom = monthAt(monthIndex(info.lastAvailableFinal) + 1);
      const forecastTo = monthAt(monthIndex(info.lastAvailableFinal) + 6);
      answer.set(request.code, {
        code: request.code,
        currency:
          request.currencyId === null ? info.defaultCurrency : (APPLIED_CURRENCY[request.currencyId] ?? null),
        unit: request.unitId === null ? info.defaultUnit : (APPLIED_UNIT[request.unitId] ?? null),
        updatedAt: info.updatedAt,
        finals: PointColumns.fromPoints(
          points(from, to, (month) => this.valueOf(request.code, month) * factor),
        ),
        forecasts:
          info.hasForecast && withForecasts
            ? PointColumns.fromPoints(
                points(forecastFrom, forecastTo, (month) => -this.valueOf(request.code, month)),
              )
            : PointColumns.EMPTY,
      });
    }
    return answer;
  }
}
