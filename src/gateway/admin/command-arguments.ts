// Arguments parsed with node:util parseArgs; a mistake becomes a message naming the flag (or the
// missing argument) and exit code 2.
import { describeDatabase } from "../database/open-database";
import type { GatewayStore } from "../store/gateway-store";
import { openGatewayStore } from "../store/sql-gateway-store";
import { EXIT_FAILED, EXIT_USAGE, say, type CommandIo } from "./command-io";

/** A wrong argument: its message goes to standard error with the command's usage line. */
export class UsageError extends Error {}

/** `parse` is a call of parseArgs; its errors become usage errors. */
export function parsedOrUsageError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    // parseArgs names the flag: "Unknown option '--budjet'", "Option '--budget <value>' argument missing".
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function requireDatabase(database: string | boolean | undefined): string {
  if (typeof database !== "string" || database.trim() === "") {
    throw new UsageError("--database is required: a directory for PGlite or a postgres:// URL.");
  }
  return database;
}

/** Runs `work` on the store, closed afterwards; a failure to open it is a message and exit code 1. */
export async function withStore(
  spec: string,
  io: CommandIo,
  work: (store: GatewayStore) => Promise<number>,
): Promise<number> {
  let store: GatewayStore;
  try {
    store = await openGatewayStore(spec);
  } catch (error) {
    say(io.stderr, `Could not open the database ${describeDatabase(spec)}: ${messageOf(error)}`);
    return EXIT_FAILED;
  }
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The command's result, with a wrong argument reported as such. */
export async function runCommand(io: CommandIo, usage: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(io.stderr, `${error.message}\nUsage: ${usage}`);
    return EXIT_USAGE;
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A budget is stored as a Postgres integer. */
const MAX_BUDGET = 2 ** 31 - 1;

/** --budget N: data requests per dataset a month; absent: no budget of its own. */
export function parseBudget(text: string | undefined): number | null {
  if (text === undefined) return null;
  const budget = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(budget) || budget > MAX_BUDGET) {
    throw new UsageError(`--budget takes a whole number of data requests, 0 or more (not "${text}").`);
  }
  return budget;
}
