// Command line of `npm run recalc`. Flags win over the environment fallbacks
// (PCD_BASE_URL, PCD_AUTH_URL, PCD_USERNAME, PCD_PASSWORD). PCD_API_KEY, a team gateway's API key
// (docs/gateway.md), signs in as the username `api-key` with the key as the password: it wins
// over PCD_USERNAME and PCD_PASSWORD, and is never a flag (flags show in the process list).
// Usage errors are exit code 2.
// PCD_NOW sets the instant the run's clock starts at: the engine predicts maintenance and
// release days from its clock, so a run against an emulator started with --now must share
// the emulator's date, or on a real maintenance day it would not call an emulator that
// answers (and on the emulator's maintenance day it would call one that refuses).
import { parseArgs } from "node:util";
import type { Clock } from "../core/environment";
import type { RunOptions } from "./run-workbook";

/** The username a team gateway's API keys sign in with (the key is the password). */
export const API_KEY_USERNAME = "api-key";

/** Longest --timeout: a day (far below the 24.8 days a Node timer can hold). */
export const MAX_TIMEOUT_SECONDS = 86_400;

export const USAGE = `Usage: npm run recalc -- [--json] [--passes N] [--refresh] [--sandbox] [--base-url URL]
  [--auth-url URL] [--username U] [--password P] [--cache FILE] [--timeout S] (--file F | FORMULA...)
       npm run recalc -- --help

Evaluates PCD formulas the way Excel does, e.g.
  npm run recalc -- '=PCD.VALUES("68520-8-1","EUR","MWh")' '=PCD.LIMITS()'
--timeout S bounds the whole run (sign-in, refresh, every pass): 1 to ${MAX_TIMEOUT_SECONDS} s, default 300.
Exit codes: 0 done, 1 unexpected failure, 2 usage error, 3 the run did not finish within --timeout.
Environment fallbacks: PCD_BASE_URL, PCD_AUTH_URL, PCD_USERNAME, PCD_PASSWORD.
PCD_API_KEY=pcdk_... signs in to a team gateway with that API key (instead of a username and password).
PCD_NOW=2026-11-10T15:00:00Z starts the run's clock at that instant (to match an emulator started with --now).`;

export interface CliOptions extends Omit<RunOptions, "formulas"> {
  json: boolean;
  /** Formulas given on the command line. */
  formulas: string[];
  /** A file of formulas (one a line; blank lines and # comments skipped). */
  file?: string;
  /** --help: print the usage and run nothing. */
  help?: boolean;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

const FLAGS = {
  json: { type: "boolean" },
  refresh: { type: "boolean" },
  sandbox: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  passes: { type: "string" },
  "base-url": { type: "string" },
  "auth-url": { type: "string" },
  username: { type: "string" },
  password: { type: "string" },
  cache: { type: "string" },
  timeout: { type: "string" },
  file: { type: "string" },
} as const;

export function parseCliArgs(argv: readonly string[], env: Record<string, string | undefined>): CliOptions {
  // --help wins over everything else on the line, mistakes included.
  if (argv.some((arg) => arg === "--help" || arg === "-h")) return { json: false, formulas: [], help: true };
  const { values, positionals } = parseFlags(argv);
  for (const [flag, value] of Object.entries(values)) {
    if (value === "") throw new UsageError(`--${flag} needs a value.`);
  }
  const options: CliOptions = { json: values.json === true, formulas: positionals };
  if (values.refresh === true) options.refresh = true;
  if (values.sandbox === true) options.sandbox = true;
  if (values.passes !== undefined) options.passes = positiveInteger("--passes", values.passes);
  if (values.timeout !== undefined) {
    options.timeoutMs = positiveInteger("--timeout", values.timeout, MAX_TIMEOUT_SECONDS) * 1000;
  }
  if (values.file !== undefined) options.file = values.file;
  if (values.cache !== undefined) options.cacheFile = values.cache;
  options.baseUrl = values["base-url"] ?? nonEmpty(env.PCD_BASE_URL);
  options.authUrl = values["auth-url"] ?? nonEmpty(env.PCD_AUTH_URL);
  const apiKey = nonEmpty(env.PCD_API_KEY);
  if (apiKey !== undefined) {
    if (values.password !== undefined || values.username !== undefined) {
      throw new UsageError(
        "PCD_API_KEY is set: it signs in by itself, so give no --username or --password (or unset PCD_API_KEY).",
      );
    }
    options.username = API_KEY_USERNAME;
    options.password = apiKey;
  } else {
    options.username = values.username ?? nonEmpty(env.PCD_USERNAME);
    options.password = values.password ?? nonEmpty(env.PCD_PASSWORD);
  }
  const start = nonEmpty(env.PCD_NOW);
  if (start !== undefined) options.clock = clockStartingAt(start);
  if (options.file !== undefined && options.formulas.length > 0) {
    throw new UsageError("Give either --file or formulas, not both.");
  }
  if (options.file === undefined && options.formulas.length === 0) {
    throw new UsageError("No formulas: give --file F or at least one formula.");
  }
  return options;
}

/**
 * Node's parseArgs, strict: an unknown flag, a missing value or a value given to a switch is
 * a usage error naming the flag. A "--" is skipped (flags after it still count): npm passes
 * one through when a user writes `npm run recalc -- -- ...`.
 */
function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({
      args: argv.filter((arg) => arg !== "--"),
      options: FLAGS,
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw usageErrorOf(error);
  }
}

/** parseArgs's errors in the runner's words, with the flag as the user typed it. */
function usageErrorOf(error: unknown): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const flag = /'(-{1,2}[^\s'=]+)/.exec(message)?.[1];
  if (flag === undefined) return new UsageError(message);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return new UsageError(`Unknown option ${flag}.`);
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/does not take an argument/.test(message)) return new UsageError(`${flag} takes no value.`);
    if (/ambiguous/.test(message)) {
      return new UsageError(`${flag} needs a value (one that starts with "-" is given as ${flag}=VALUE).`);
    }
    return new UsageError(`${flag} needs a value.`);
  }
  return new UsageError(message);
}

/** Formulas of a file: one a line, blank lines and lines starting with # skipped. */
export function formulasOfFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

function positiveInteger(flag: string, value: string, max?: number): number {
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(number >= 1) || (max !== undefined && number > max)) {
    const range = max === undefined ? "of at least 1" : `from 1 to ${max}`;
    throw new UsageError(`${flag} must be a whole number ${range}; got "${value}".`);
  }
  return number;
}

/**
 * A clock that reads `start` now and advances with real time, so timers and token expiry
 * behave as they would on that day. Only a full ISO date-time with a zone is accepted: a
 * bare date would mean midnight in a zone the user did not name.
 */
export function clockStartingAt(start: string, realNow: () => number = Date.now): Clock {
  const instant = ISO_INSTANT.test(start) ? Date.parse(start) : NaN;
  if (!Number.isFinite(instant)) {
    throw new UsageError(
      `PCD_NOW must be an ISO date-time with a zone, e.g. 2026-11-10T15:00:00Z; got "${start}".`,
    );
  }
  const offsetMs = instant - realNow();
  return { now: () => realNow() + offsetMs };
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
