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
    store = await (io.openStore ?? openGatewayStore)(spec);
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

/** One action of a command: its positionals and parsed options; the exit code. */
export type CommandAction<Values> = (positionals: string[], values: Values, io: CommandIo) => Promise<number>;

/**
 * A command of named actions (`user add`, `key list`): picks the action from the first
 * argument, parses the rest, and reports a failure of the action by its name.
 */
export function runActionCommand<Values>(settings: {
  command: string;
  usage: string;
  actions: Readonly<Record<string, CommandAction<Values>>>;
  parse: (argv: string[]) => { values: Values; positionals: string[] };
  argv: string[];
  io: CommandIo;
}): Promise<number> {
  const { command, actions, io } = settings;
  return runCommand(io, settings.usage, async () => {
    const [action, ...rest] = settings.argv;
    const run =
      action === undefined ? undefined : Object.hasOwn(actions, action) ? actions[action] : undefined;
    if (action === undefined || run === undefined) {
      const names = Object.keys(actions);
      throw new UsageError(
        action === undefined || action.startsWith("-")
          ? `${command} needs an action: ${names.slice(0, -1).join(", ")} or ${names.at(-1) ?? ""}.`
          : `Unknown ${command} action "${action}".`,
      );
    }
    const { values, positionals } = settings.parse(rest);
    try {
      return await run(positionals, values, io);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      say(io.stderr, `${command} ${action} failed: ${messageOf(error)}`);
      return EXIT_FAILED;
    }
  });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A budget is stored as a Postgres integer. */
const MAX_BUDGET = 2 ** 31 - 1;

/** --budget N: data requests per dataset from one release to the next; absent: no budget of its own. */
export function parseBudget(text: string | undefined): number | null {
  if (text === undefined) return null;
  const budget = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(budget) || budget > MAX_BUDGET) {
    throw new UsageError(`--budget takes a whole number of data requests, 0 or more (not "${text}").`);
  }
  return budget;
}
