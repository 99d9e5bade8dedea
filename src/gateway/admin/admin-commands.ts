// The gateway's command-line subcommands for its administrator, by name, for the cli to dispatch.
import type { AdminCommand } from "./command-io";
import { keyCommand, KEY_USAGE } from "./key-command";
import { usageCommand, USAGE_USAGE } from "./usage-command";
import { userCommand, USER_USAGE } from "./user-command";

export const ADMIN_COMMANDS: Readonly<Record<string, { run: AdminCommand; usage: string }>> = {
  user: { run: userCommand, usage: USER_USAGE },
  usage: { run: usageCommand, usage: USAGE_USAGE },
  key: { run: keyCommand, usage: KEY_USAGE },
};
