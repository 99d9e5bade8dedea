// Shared harness of the conformance suite: starts an emulator on an ephemeral port,
// gets tokens and calls it over real HTTP.
import {
  startEmulator,
  type EmulatorClocks,
  type EmulatorOptions,
  type RunningEmulator,
} from "../../../src/emulator";

/** A quiet Tuesday, 12:00 CST: no downtime, November 2026's release (the 4th) has happened. */
export const QUIET_NOW = "2026-11-10T18:00:00Z";

/** The real shape's text for a field that does not apply (the spec shape writes "n/a"). */
export const NOT_APPLICABLE = "-";

/** Fields of a Series Values record by the letter (docs/service.md §2.2); the real shape adds EXTRA_VALUES_FIELDS. */
export const SPEC_VALUES_FIELDS = [
  "assessment",
  "code",
  "coverage",
  "currency",
  "product",
  "remark_1",
  "remark_2",
  "series_final_values",
  "series_forecast_values",
  "unit",
  "updated_at",
] as const;

/** Fields the real service adds to every Series Values record. */
export const EXTRA_VALUES_FIELDS = [
  "area",
  "details",
  "incoterm",
  "market_type",
  "price_type",
  "specification",
] as const;

/** Series Values returns the latest final month and the 12 before it. */
export const VALUES_WINDOW_MONTHS = 13;

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class Harness {
  private token: string | undefined;

  private constructor(readonly emulator: RunningEmulator) {}

  /** clocks: the emulator's time sources (e.g. a pinned clock: time does not flow). */
  static async start(options: Partial<EmulatorOptions> = {}, clocks: EmulatorClocks = {}): Promise<Harness> {
    const emulator = await startEmulator(
      {
        now: QUIET_NOW,
        quiet: true,
        rateLimitPerSecond: 0,
        ...options,
      },
      clocks,
    );
    return new Harness(emulator);
  }

  get url(): string {
    return this.emulator.url;
  }

  async close(): Promise<void> {
    await this.emulator.close();
  }

  async request<T = unknown>(method: string, path: string, init: RequestInit = {}): Promise<Answer<T>> {
    const response = await fetch(`${this.url}${path}`, { method, ...init });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Text bodies stay text (--error-format text, malformed faults).
    }
    return { status: response.status, headers: response.headers, body: body as T, text };
  }

  async post<T = unknown>(path: string, body: unknown): Promise<Answer<T>> {
    return this.request<T>("POST", path, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  async newToken(): Promise<string> {
    const answer = await this.post<{ access_token: string }>("/access_token/v1", {
      username: this.emulator.username,
      password: this.emulator.password,
    });
    if (answer.status !== 200) throw new Error(`Token request failed: ${answer.status} ${answer.text}`);
    return answer.body.access_token;
  }

  /** GET with a (cached) valid bearer token. */
  async get<T = unknown>(path: string): Promise<Answer<T>> {
    this.token ??= await this.newToken();
    return this.request<T>("GET", path, { headers: { authorization: `Bearer ${this.token}` } });
  }

  forgetToken(): void {
    this.token = undefined;
  }
}

export interface InfoRecord {
  code: string;
  coverage: string;
  commodity: string;
  assessment: string;
  default_currency: string;
  default_unit: string;
  available_currencies: string;
  available_units: string;
  has_forecast: boolean | string;
  has_preliminary: boolean | string;
  series_hist_changed: boolean | string;
  last_available_final: string;
  updated_at: string;
  remark_1: string;
  remark_2: string;
  area: string;
  details: string;
  product: string;
  location: string;
  specification: string;
}

export interface DatedValue {
  date: string;
  value: number;
}

export interface ValuesRecord {
  code: string;
  coverage: string;
  currency: string;
  unit: string;
  product: string;
  assessment: string;
  remark_1: string;
  remark_2: string;
  updated_at: string;
  series_final_values: DatedValue[];
  series_forecast_values: DatedValue[];
  [extra: string]: unknown;
}

/** Month arithmetic on "YYYY-MM-01" dates. */
export function addMonths(date: string, months: number): string {
  const [year = 0, month = 1] = date.split("-").map(Number);
  const index = year * 12 + (month - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}-01`;
}
