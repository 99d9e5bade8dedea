// Command line of `npm run recalc`. Flags win over the environment fallbacks
// (PCD_BASE_URL, PCD_AUTH_URL, PCD_USERNAME, PCD_PASSWORD). Usage errors are exit code 2.
import type { RunOptions } from "./run-workbook";

export const USAGE = `Usage: npm run recalc -- [--json] [--passes N] [--refresh] [--sandbox] [--base-url URL]
  [--auth-url URL] [--username U] [--password P] [--cache FILE] [--timeout S] (--file F | FORMULA...)

Evaluates PCD formulas the way Excel does, e.g.
  npm run recalc -- '=PCD.VALUES("68520-8-1","EUR","MWh")' '=PCD.LIMITS()'
Environment fallbacks: PCD_BASE_URL, PCD_AUTH_URL, PCD_USERNAME, PCD_PASSWORD.`;

export interface CliOptions extends Omit<RunOptions, "formulas"> {
  json: boolean;
  /** Formulas given on the command line. */
  formulas: string[];
  /** A file of formulas (one a line; blank lines and # comments skipped). */
  file?: string;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

const VALUE_FLAGS = new Set([
  "--passes",
  "--base-url",
  "--auth-url",
  "--username",
  "--password",
  "--cache",
  "--timeout",
  "--file",
]);

export function parseCliArgs(argv: readonly string[], env: Record<string, string | undefined>): CliOptions {
  const options: CliOptions = { json: false, formulas: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === "--") continue;
    if (!arg.startsWith("--")) {
      options.formulas.push(arg);
      continue;
    }
    const [flag, inlineValue] = splitFlag(arg);
    if (!VALUE_FLAGS.has(flag)) {
      if (inlineValue !== undefined) throw new UsageError(`${flag} takes no value.`);
      switch (flag) {
        case "--json":
          options.json = true;
          break;
        case "--refresh":
          options.refresh = true;
          break;
        case "--sandbox":
          options.sandbox = true;
          break;
        default:
          throw new UsageError(`Unknown option ${flag}.`);
      }
      continue;
    }
    const value = inlineValue ?? argv[++index];
    if (value === undefined || value === "") throw new UsageError(`${flag} needs a value.`);
    applyValueFlag(options, flag, value);
  }
  options.baseUrl ??= nonEmpty(env.PCD_BASE_URL);
  options.authUrl ??= nonEmpty(env.PCD_AUTH_URL);
  options.username ??= nonEmpty(env.PCD_USERNAME);
  options.password ??= nonEmpty(env.PCD_PASSWORD);
  if (options.file !== undefined && options.formulas.length > 0) {
    throw new UsageError("Give either --file or formulas, not both.");
  }
  if (options.file === undefined && options.formulas.length === 0) {
    throw new UsageError("No formulas: give --file F or at least one formula.");
  }
  return options;
}

function applyValueFlag(options: CliOptions, flag: string, value: string): void {
  switch (flag) {
    case "--passes":
      options.passes = positiveInteger(flag, value);
      break;
    case "--timeout":
      options.timeoutMs = positiveInteger(flag, value) * 1000;
      break;
    case "--base-url":
      options.baseUrl = value;
      break;
    case "--auth-url":
      options.authUrl = value;
      break;
    case "--username":
      options.username = value;
      break;
    case "--password":
      options.password = value;
      break;
    case "--cache":
      options.cacheFile = value;
      break;
    case "--file":
      options.file = value;
      break;
  }
}

/** Formulas of a file: one a line, blank lines and lines starting with # skipped. */
export function formulasOfFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

function splitFlag(arg: string): [string, string | undefined] {
  const equals = arg.indexOf("=");
  return equals === -1 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)];
}

function positiveInteger(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError(`${flag} must be a whole number of at least 1; got "${value}".`);
  }
  return Number(value);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
