// Command-line flags of `npm run serve -- ...` (node's own parseArgs). A bad flag or value
// is an error that names it; nothing here touches the network or the disk.
import { parseArgs } from "node:util";

/** Not 3000 (npm start's add-in) nor 3001 (its emulator): both can run beside it. */
export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_DIST = "dist";

export interface ServeOptions {
  port: number;
  host: string;
  /** The built add-in (npm run build's output). */
  dist: string;
  /** The one upstream /service/<path> is relayed to (its path is kept: URL/<path>). */
  proxyTo: URL | undefined;
  /** TLS certificate and key files (PEM), both or neither. */
  cert: string | undefined;
  key: string | undefined;
}

export const SERVE_USAGE =
  "Usage: npm run serve -- [--port N] [--host H] [--dist DIR] [--proxy-to URL] [--cert FILE --key FILE]";

export class ServeArgumentError extends Error {}

function port(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) {
    throw new ServeArgumentError(`--port expects a port number from 0 to 65535, got '${text}'`);
  }
  return value;
}

function upstream(text: string | undefined): URL | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ServeArgumentError(`--proxy-to expects the service's address (https://...), got '${text}'`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ServeArgumentError(`--proxy-to expects an http(s) address, got '${text}'`);
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new ServeArgumentError(
      `--proxy-to must not carry credentials, a query or a fragment, got '${text}'`,
    );
  }
  return url;
}

export function parseServeArgs(argv: readonly string[]): ServeOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: "string" },
        host: { type: "string" },
        dist: { type: "string" },
        "proxy-to": { type: "string" },
        cert: { type: "string" },
        key: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ServeArgumentError((error as Error).message);
  }
  if ((values.cert === undefined) !== (values.key === undefined)) {
    throw new ServeArgumentError("--cert and --key go together (TLS needs both files)");
  }
  if (values.host === "") throw new ServeArgumentError("--host needs a value");
  return {
    port: port(values.port),
    host: values.host ?? DEFAULT_HOST,
    dist: values.dist ?? DEFAULT_DIST,
    proxyTo: upstream(values["proxy-to"]),
    cert: values.cert,
    key: values.key,
  };
}
