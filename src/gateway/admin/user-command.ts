// `user add|remove|block|unblock|list`: the gateway's member accounts. A new member's password
// comes from standard input, so it appears in no command line, shell history or process list.
// Members who sign in through the organisation are added at their first request; blocking
// refuses a member whatever their token.
import { parseArgs } from "node:util";
import { inDomain, isEmail, normaliseEmail } from "../members/member-email";
import type { Member } from "../store/gateway-store";
import {
  parsedOrUsageError,
  requireDatabase,
  runActionCommand,
  UsageError,
  withStore,
  parseBudget,
} from "./command-arguments";
import { EXIT_FAILED, EXIT_OK, say, type CommandIo } from "./command-io";
import { readPassword } from "./read-password";
import { textTable } from "./text-table";

export const USER_USAGE = [
  "user add EMAIL [--budget N] [--admin] [--domain example.com] --database SPEC   (password on standard input)",
  "user remove EMAIL --database SPEC",
  "user block EMAIL --database SPEC",
  "user unblock EMAIL --database SPEC",
  "user list --database SPEC",
].join("\n       ");

const OPTIONS = {
  database: { type: "string" },
  budget: { type: "string" },
  admin: { type: "boolean" },
  domain: { type: "string" },
} as const;

function describeBudget(budget: number | null): string {
  return budget === null
    ? "none of their own"
    : `${budget} data requests per dataset a month, release to release`;
}

function describeMember(member: Member): string {
  return `${member.email} (${member.admin ? "admin" : "member"}, budget: ${describeBudget(member.budget)})`;
}

function oneEmail(positionals: string[], action: string): string {
  if (positionals.length !== 1)
    throw new UsageError(`user ${action} takes one EMAIL (${positionals.length} given).`);
  const email = normaliseEmail(positionals[0] ?? "");
  if (!isEmail(email)) throw new UsageError(`"${positionals[0]}" is not an email address (name@domain).`);
  return email;
}

async function add(positionals: string[], values: ParsedValues, io: CommandIo): Promise<number> {
  const email = oneEmail(positionals, "add");
  const domain = values.domain === undefined ? null : normaliseEmail(values.domain);
  if (domain !== null && !inDomain(email, domain)) {
    throw new UsageError(`--domain ${domain}: ${email} is not an address in ${domain}.`);
  }
  const budget = parseBudget(values.budget);
  const spec = requireDatabase(values.database);
  const password = await readPassword(io.stdin, `Password for ${email}: `, io.stderr);
  if (password === null || password === "") {
    say(io.stderr, "No password given: write the new member's password as the first line of standard input.");
    return EXIT_FAILED;
  }
  return withStore(spec, io, async (store) => {
    const existed = (await store.members.find(email)) !== null;
    const member = await store.members.save(email, password, { budget, admin: values.admin === true });
    say(io.stdout, `${existed ? "Updated" : "Added"} ${describeMember(member)}.`);
    return EXIT_OK;
  });
}

/** Flags other than --database are add's alone: given to remove or list they are a mistake. */
function onlyDatabase(values: ParsedValues, action: string): void {
  const others = Object.keys(values).filter((flag) => flag !== "database");
  if (others.length > 0) throw new UsageError(`--${others[0]} is not an option of user ${action}.`);
}

async function remove(positionals: string[], values: ParsedValues, io: CommandIo): Promise<number> {
  onlyDatabase(values, "remove");
  const email = oneEmail(positionals, "remove");
  return withStore(requireDatabase(values.database), io, async (store) => {
    if (!(await store.members.remove(email))) {
      say(io.stderr, `No member ${email}: nothing removed.`);
      return EXIT_FAILED;
    }
    say(io.stdout, `Removed ${email}.`);
    return EXIT_OK;
  });
}

function setBlocked(blocked: boolean) {
  const action = blocked ? "block" : "unblock";
  return async (positionals: string[], values: ParsedValues, io: CommandIo): Promise<number> => {
    onlyDatabase(values, action);
    const email = oneEmail(positionals, action);
    return withStore(requireDatabase(values.database), io, async (store) => {
      if (!(await store.members.setBlocked(email, blocked))) {
        say(io.stderr, `No member ${email}: nothing to ${action}.`);
        return EXIT_FAILED;
      }
      say(
        io.stdout,
        blocked
          ? `Blocked ${email}: the gateway refuses their requests, whatever their token.`
          : `Unblocked ${email}.`,
      );
      return EXIT_OK;
    });
  };
}

async function list(positionals: string[], values: ParsedValues, io: CommandIo): Promise<number> {
  onlyDatabase(values, "list");
  if (positionals.length > 0)
    throw new UsageError(`user list takes no EMAIL (given: ${positionals.join(" ")}).`);
  return withStore(requireDatabase(values.database), io, async (store) => {
    const members = await store.members.list();
    if (members.length === 0) {
      say(io.stdout, "No members yet: add one with `user add EMAIL --database SPEC`.");
      return EXIT_OK;
    }
    const rows = members.map((member) => [
      member.email,
      member.admin ? "admin" : "member",
      member.budget ?? "none",
      member.blocked ? "blocked" : "",
    ]);
    say(io.stdout, textTable(["email", "role", "budget", "status"], rows));
    return EXIT_OK;
  });
}

type ParsedValues = ReturnType<typeof parse>["values"];

function parse(argv: string[]) {
  return parsedOrUsageError(() =>
    parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }),
  );
}

const ACTIONS = { add, remove, block: setBlocked(true), unblock: setBlocked(false), list };

export function userCommand(argv: string[], io: CommandIo): Promise<number> {
  return runActionCommand({ command: "user", usage: USER_USAGE, actions: ACTIONS, parse, argv, io });
}
