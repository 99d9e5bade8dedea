// Every setting of the emulator: the in-process options mirror the command-line flags
// one to one (cli.ts maps flags onto this type). Defaults are those of the in-process API
// (port 0, admin on); the CLI overrides port and admin.

export type ArrayOrder = "newest" | "oldest" | "shuffled";
export type ErrorFormat = "json" | "text";
/**
 * real: what the real service sends (docs/service.md): History ends the month before the
 * 13-month Series Values window and has no forecasts, booleans are "True"/"False" strings,
 * "not applicable" is "-", values records carry extra fields, arrays newest first.
 * spec: the letter of the service description (History reaches the latest final month and
 * carries the forecasts, JSON booleans, "n/a", no extra fields).
 */
export type ServiceShape = "real" | "spec";

export interface EmulatorOptions {
  /** 0 picks a free port. */
  port: number;
  host: string;
  seed: number;
  /** Start of the offset clock (ISO text or Date); undefined = real time. */
  now: string | Date | undefined;
  tokenTtlSeconds: number;
  /** Added to every answer. */
  latencyMs: number;
  /** Added per requested code to Series Values / History answers. */
  latencyPerCodeMs: number;
  /** Whether the plan includes Series Values History. */
  history: boolean;
  /** Monthly data requests per dataset. */
  allowance: number;
  /** Datasets in the subscription (coverage names, any product); undefined = all of them. */
  subscribedDatasets: string[] | undefined;
  user: string;
  password: string;
  /** Enables the /__admin endpoints. */
  admin: boolean;
  forecastMonths: number;
  /** Suppresses the ready line. */
  quiet: boolean;
  /** Origins allowed by CORS in addition to any http(s)://localhost:* and 127.0.0.1:* origin. */
  corsOrigins: string[];
  /** false: no CORS headers at all, like a gateway that allows no browser origin (docs/deploy.md's proxy). */
  cors: boolean;
  /** Hour (US Central) of the monthly release on the 3rd business day. */
  releaseHour: number;
  /** Maintenance and release-day downtime (off only for runs that must not meet it). */
  downtime: boolean;
  /** Requests per second per operation before 429; 0 disables the limit. */
  rateLimitPerSecond: number;
  dailyQuota: number;
  seriesInfoMonthlyQuota: number;
  /** Sets the defaults of the variants below (explicit values win). */
  shape: ServiceShape;
  // Variants of the real service (docs/service.md).
  boolStrings: boolean;
  naMarker: string;
  extraFields: boolean;
  order: ArrayOrder;
  historyEndsBeforeValues: boolean;
  /** Whether Series Values History answers carry the forecasts too. */
  historyForecasts: boolean;
  duplicateDates: boolean;
  errorFormat: ErrorFormat;
}

export const DEFAULT_OPTIONS: Readonly<EmulatorOptions> = {
  port: 0,
  host: "127.0.0.1",
  seed: 1,
  now: undefined,
  tokenTtlSeconds: 7200,
  latencyMs: 0,
  latencyPerCodeMs: 0,
  history: true,
  allowance: 500,
  subscribedDatasets: undefined,
  user: "analyst@pcd.example",
  password: "pcd-emulator",
  admin: true,
  forecastMonths: 6,
  quiet: false,
  corsOrigins: ["https://localhost:3000"],
  cors: true,
  releaseHour: 12,
  downtime: true,
  rateLimitPerSecond: 10,
  dailyQuota: 8000,
  seriesInfoMonthlyQuota: 10000,
  shape: "real",
  boolStrings: true,
  naMarker: "-",
  extraFields: true,
  order: "newest",
  historyEndsBeforeValues: true,
  historyForecasts: false,
  duplicateDates: false,
  errorFormat: "json",
};

type ShapeVariants = Pick<
  EmulatorOptions,
  "boolStrings" | "naMarker" | "extraFields" | "order" | "historyEndsBeforeValues" | "historyForecasts"
>;

/** The variant defaults each shape implies; an option given explicitly overrides them. */
export const SHAPE_DEFAULTS: Readonly<Record<ServiceShape, Readonly<ShapeVariants>>> = {
  real: {
    boolStrings: true,
    naMarker: "-",
    extraFields: true,
    order: "newest",
    historyEndsBeforeValues: true,
    historyForecasts: false,
  },
  spec: {
    boolStrings: false,
    naMarker: "n/a",
    extraFields: false,
    order: "newest",
    historyEndsBeforeValues: false,
    historyForecasts: true,
  },
};

/** Sandbox daily quotas of docs/service.md §8.1, per operation. */
export const SANDBOX_DAILY_QUOTAS = {
  series_info: 8000,
  series_values: 16000,
  series_hist: 16000,
} as const;

/** Codes per Series Values / History call (docs/service.md §8.1). */
export const MAX_CODES_PER_CALL = 40;

/** Merges partial options over the defaults and rejects settings that make no sense. */
export function resolveOptions(partial: Partial<EmulatorOptions> = {}): EmulatorOptions {
  const defined = Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined));
  const shape = partial.shape ?? DEFAULT_OPTIONS.shape;
  if (shape !== "real" && shape !== "spec") {
    throw new Error(`Option shape must be real or spec, got '${String(shape)}'`);
  }
  const options: EmulatorOptions = { ...DEFAULT_OPTIONS, ...SHAPE_DEFAULTS[shape], ...defined };
  const integer = (name: keyof EmulatorOptions, min: number, max = Number.MAX_SAFE_INTEGER): void => {
    const value = options[name];
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw new Error(`Option ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
    }
  };
  integer("port", 0, 65535);
  integer("seed", 0);
  integer("tokenTtlSeconds", 1);
  integer("latencyMs", 0);
  integer("latencyPerCodeMs", 0);
  integer("allowance", 0);
  integer("forecastMonths", 0, 24);
  integer("releaseHour", 0, 23);
  integer("rateLimitPerSecond", 0);
  integer("dailyQuota", 0);
  integer("seriesInfoMonthlyQuota", 0);
  if (options.now !== undefined && Number.isNaN(new Date(options.now).getTime())) {
    throw new Error(`Option now must be an ISO date-time, got '${String(options.now)}'`);
  }
  if (!["newest", "oldest", "shuffled"].includes(options.order)) {
    throw new Error(`Option order must be newest, oldest or shuffled, got '${options.order}'`);
  }
  if (!["json", "text"].includes(options.errorFormat)) {
    throw new Error(`Option errorFormat must be json or text, got '${options.errorFormat}'`);
  }
  if (options.user.length === 0 || options.password.length === 0) {
    throw new Error("Options user and password must not be empty");
  }
  return options;
}
