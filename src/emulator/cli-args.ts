// Command-line flags of `npm run emulator -- ...`, mapped one to one onto EmulatorOptions
// with node's own parseArgs. A bad flag or value is an error naming it. Boolean flags also
// take a --no- form, so a variant the shape turns on can be turned off on its own.
import { parseArgs } from "node:util";
import type { ArrayOrder, EmulatorOptions, ErrorFormat, ServiceShape } from "./options";

const FLAGS = {
  port: { type: "string" },
  host: { type: "string" },
  seed: { type: "string" },
  now: { type: "string" },
  "token-ttl": { type: "string" },
  latency: { type: "string" },
  "latency-per-code": { type: "string" },
  history: { type: "string" },
  allowance: { type: "string" },
  datasets: { type: "string" },
  user: { type: "string" },
  password: { type: "string" },
  admin: { type: "boolean" },
  "forecast-months": { type: "string" },
  quiet: { type: "boolean" },
  "cors-origin": { type: "string", multiple: true },
  "release-hour": { type: "string" },
  downtime: { type: "string" },
  "rate-limit": { type: "string" },
  shape: { type: "string" },
  "bool-strings": { type: "boolean" },
  "na-marker": { type: "string" },
  "extra-fields": { type: "boolean" },
  order: { type: "string" },
  "history-ends-before-values": { type: "boolean" },
  "history-forecasts": { type: "boolean" },
  "duplicate-dates": { type: "boolean" },
  "error-format": { type: "string" },
  help: { type: "boolean" },
} as const;

export const CLI_USAGE = `Usage: npm run emulator -- [--port N] [--host H] [--seed N] [--now ISO] [--token-ttl SECONDS]
  [--latency MS] [--latency-per-code MS] [--history on|off] [--allowance N] [--datasets A,B,...] [--user EMAIL] [--password P]
  [--admin] [--forecast-months N] [--release-hour H] [--downtime on|off] [--rate-limit N] [--quiet]
  [--cors-origin ORIGIN ...] [--shape real|spec] [--[no-]bool-strings] [--na-marker TEXT]
  [--[no-]extra-fields] [--order newest|oldest|shuffled] [--[no-]history-ends-before-values]
  [--[no-]history-forecasts] [--[no-]duplicate-dates] [--error-format json|text]`;

export class CliArgumentError extends Error {}

function integer(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text))
    throw new CliArgumentError(`--${flag} expects a non-negative integer, got '${text}'`);
  return Number(text);
}

function onOff(flag: string, text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (text !== "on" && text !== "off")
    throw new CliArgumentError(`--${flag} expects on or off, got '${text}'`);
  return text === "on";
}

function oneOf<T extends string>(
  flag: string,
  text: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (text === undefined) return undefined;
  const found = allowed.find((value) => value === text);
  if (found === undefined)
    throw new CliArgumentError(`--${flag} expects ${allowed.join("|")}, got '${text}'`);
  return found;
}

/** CLI defaults differ from in-process ones: port 3001 and admin off unless --admin. */
export function parseCliArgs(argv: readonly string[]): Partial<EmulatorOptions> & { help: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: FLAGS,
      strict: true,
      allowPositionals: false,
      allowNegative: true,
    }));
  } catch (error) {
    throw new CliArgumentError(error instanceof Error ? error.message : String(error));
  }
  if (values.now !== undefined && Number.isNaN(Date.parse(values.now))) {
    throw new CliArgumentError(`--now expects an ISO date-time, got '${values.now}'`);
  }
  return {
    help: values.help === true,
    port: integer("port", values.port) ?? 3001,
    host: values.host,
    seed: integer("seed", values.seed),
    now: values.now,
    tokenTtlSeconds: integer("token-ttl", values["token-ttl"]),
    latencyMs: integer("latency", values.latency),
    latencyPerCodeMs: integer("latency-per-code", values["latency-per-code"]),
    history: onOff("history", values.history),
    allowance: integer("allowance", values.allowance),
    subscribedDatasets: values.datasets?.split(",").map((dataset) => dataset.trim()),
    user: values.user,
    password: values.password,
    admin: values.admin === true,
    forecastMonths: integer("forecast-months", values["forecast-months"]),
    quiet: values.quiet,
    corsOrigins: values["cors-origin"] === undefined ? undefined : [...values["cors-origin"]],
    releaseHour: integer("release-hour", values["release-hour"]),
    downtime: onOff("downtime", values.downtime),
    rateLimitPerSecond: integer("rate-limit", values["rate-limit"]),
    shape: oneOf<ServiceShape>("shape", values.shape, ["real", "spec"]),
    boolStrings: values["bool-strings"],
    naMarker: values["na-marker"],
    extraFields: values["extra-fields"],
    order: oneOf<ArrayOrder>("order", values.order, ["newest", "oldest", "shuffled"]),
    historyEndsBeforeValues: values["history-ends-before-values"],
    historyForecasts: values["history-forecasts"],
    duplicateDates: values["duplicate-dates"],
    errorFormat: oneOf<ErrorFormat>("error-format", values["error-format"], ["json", "text"]),
  };
}
