// Runs an admin command as the cli would, with in-memory streams: what it is given on standard
// input, and what it wrote to standard output and standard error.
import { PassThrough, Writable } from "node:stream";
import type { AdminCommand } from "../../../src/gateway/admin/command-io";

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

export async function runAdmin(
  command: AdminCommand,
  argv: string[],
  options: { stdin?: string; now?: number } = {},
): Promise<CommandRun> {
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? "");
  const stdout = collector();
  const stderr = collector();
  const now = options.now;
  const code = await command(argv, {
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    ...(now === undefined ? {} : { now: () => now }),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
