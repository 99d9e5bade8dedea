// `key add|revoke|list`: API keys for scripts (api-keys/api-key.ts). `add` prints the key once;
// the gateway keeps only its hash, so a lost key is revoked and replaced, never shown again.
import { parseArgs } from "node:util";
import { apiKeyMember, hashApiKeySecret, isApiKeyName, newApiKeySecret } from "../api-keys/api-key";
import type { ApiKey } from "../store/gateway-store";
import {
  parsedOrUsageError,
  requireDatabase,
  runActionCommand,
  UsageError,
  withStore,
  parseBudget,
} from "./command-arguments";
import { EXIT_FAILED, EXIT_OK, say, type CommandIo } from "./command-io";
import { textTable } from "./text-table";

export const KEY_USAGE = [
  "key add NAME [--budget N] --database SPEC   (prints the key once)",
  "key revoke NAME --database SPEC",
  "key list --database SPEC",
].join("\n       ");

const OPTIONS = {
  database: { type: "string" },
  budget: { type: "string" },
} as const;

type ParsedValues = ReturnType<typeof parse>["values"];

function parse(argv: string[]) {
  return parsedOrUsageError(() =>
    parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }),
  );
}

function oneName(positionals: string[], action: string): string {
  if (positionals.length !== 1)
    throw new UsageError(`key ${action} takes one NAME (${positionals.length} given).`);
  const name = positionals[0] ?? "";
  if (!isApiKeyName(name)) {
    throw new UsageError(
      `"${name}" is not a key name: lower-case letters, digits, '.', '_' and '-', up to 64, starting with a letter or digit.`,
    );
  }
  return name;
}

const nowOf = (io: CommandIo): Date => new Date((io.now ?? Date.now)());

async function add(positionals: string[], values: ParsedValues, io: CommandIo): Promise<number> {
  const name = oneName(positionals, "add");
  const budget = parseBudget(values.budget);
  return withStore(requireDatabase(values.database), io, async (store) => {
    const existing = await store.keys.find(name);
    if (existing !== null && existing.revokedAt === null) {
      say(
        io.stderr,
        `A working key named ${name} exists: revoke it first (key revoke ${name}), or choose another name.`,
      );
      return EXIT_FAILED;
    }
    const secret = newApiKeySecret();
    await store.keys.add(name, hashApiKeySecret(secret), { budget, at: nowOf(io) });
    say(io.stdout, secret);
    say(
      io.stderr,
      `Added the key ${name} (budget: ${budget === null ? "none of its own" : `${budget} data requests per dataset a month, release to release`}); ` +
        `its requests show as ${apiKeyMember(name)}. The key above is shown this once: keep it in the script's PCD_API_KEY.`,
    );
    return EXIT_OK;
  });
}

async function revoke(positionals: string[], values: ParsedValues, io: CommandIo): Promise<number> {
  if (values.budget !== undefined) throw new UsageError("--budget is not an option of key revoke.");
  const name = oneName(positionals, "revoke");
  return withStore(requireDatabase(values.database), io, async (store) => {
    if (!(await store.keys.revoke(name, nowOf(io)))) {
      say(io.stderr, `No working key ${name}: nothing revoked.`);
      return EXIT_FAILED;
    }
    say(io.stdout, `Revoked ${name}: its tokens stop working at once.`);
    return EXIT_OK;
  });
}

const day = (at: Date): string => at.toISOString().slice(0, 16).replace("T", " ");

async function list(positionals: string[], values: ParsedValues, io: CommandIo): Promise<number> {
  if (values.budget !== undefined) throw new UsageError("--budget is not an option of key list.");
  if (positionals.length > 0)
    throw new UsageError(`key list takes no NAME (given: ${positionals.join(" ")}).`);
  return withStore(requireDatabase(values.database), io, async (store) => {
    const keys = await store.keys.list();
    if (keys.length === 0) {
      say(io.stdout, "No API keys yet: add one with `key add NAME --database SPEC`.");
      return EXIT_OK;
    }
    const rows = keys.map((key: ApiKey) => [
      key.name,
      key.budget ?? "none",
      day(key.createdAt),
      key.revokedAt === null ? "" : day(key.revokedAt),
    ]);
    say(io.stdout, textTable(["name", "budget", "created (UTC)", "revoked (UTC)"], rows));
    return EXIT_OK;
  });
}

const ACTIONS = { add, revoke, list };

export function keyCommand(argv: string[], io: CommandIo): Promise<number> {
  return runActionCommand({ command: "key", usage: KEY_USAGE, actions: ACTIONS, parse, argv, io });
}
