// What an admin command is given: its arguments after the command's name, and the streams of the
// process (in-memory streams in tests). It answers with the process's exit code.
import type { Readable, Writable } from "node:stream";
import type { GatewayStore } from "../store/gateway-store";

export interface CommandIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** The clock (milliseconds since 1970); the real one when absent. */
  now?: () => number;
  /**
   * Opens the store the command's --database names; openGatewayStore when absent. The command
   * closes what this gives it when done.
   */
  openStore?: (spec: string) => Promise<GatewayStore>;
}

export type AdminCommand = (argv: string[], io: CommandIo) => Promise<number>;

/** Exit codes: 1 the command could not be done, 2 its arguments are wrong. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export function say(stream: Writable, text: string): void {
  stream.write(text.endsWith("\n") ? text : `${text}\n`);
}
