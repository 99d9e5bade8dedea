// Runs an admin command as the cli would, with in-memory streams: what it is given on standard
// input, and what it wrote to standard output and standard error; and keeps a test file's
// databases open across its commands (KeptStores).
import { PassThrough, Writable } from "node:stream";
import type { AdminCommand } from "../../../src/gateway/admin/command-io";
import type { SqlDatabase } from "../../../src/gateway/database/sql-database";
import type { GatewayStore } from "../../../src/gateway/store/gateway-store";
import { openMigratedDatabase, sqlGatewayStore } from "../../../src/gateway/store/sql-gateway-store";

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

interface KeptStore {
  database: SqlDatabase;
  store: GatewayStore;
}

/**
 * A test file's databases, each opened (and its schema brought up to date) once and closed by
 * closeAll(). An admin command run with them works on the open store and leaves it open, where
 * the cli's command opens and closes its own (the gateway cli test runs commands that way):
 * opening a PGlite directory costs about half a CPU-second, and these files run dozens of
 * commands. A failed open is not kept.
 */
export class KeptStores {
  private readonly kept = new Map<string, Promise<KeptStore>>();

  private keep(spec: string): Promise<KeptStore> {
    let opening = this.kept.get(spec);
    if (opening === undefined) {
      opening = openMigratedDatabase(spec).then((database) => ({
        database,
        store: sqlGatewayStore(database),
      }));
      this.kept.set(spec, opening);
      opening.catch(() => this.kept.delete(spec));
    }
    return opening;
  }

  /** The store on `spec`; closing it leaves it open for the file's next command. */
  readonly open = async (spec: string): Promise<GatewayStore> => ({
    ...(await this.keep(spec)).store,
    close: () => Promise.resolve(),
  });

  /** The database under the store, for what a test reads directly. */
  async database(spec: string): Promise<SqlDatabase> {
    return (await this.keep(spec)).database;
  }

  async closeAll(): Promise<void> {
    const opened = await Promise.allSettled(this.kept.values());
    this.kept.clear();
    for (const result of opened) if (result.status === "fulfilled") await result.value.database.close();
  }
}

export async function runAdmin(
  command: AdminCommand,
  argv: string[],
  options: { stdin?: string; now?: number; stores?: KeptStores } = {},
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
    ...(options.stores === undefined ? {} : { openStore: options.stores.open }),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
