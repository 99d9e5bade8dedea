// `npm run serve -- [--port N] [--host H] [--dist DIR] [--proxy-to URL] [--cert FILE --key FILE]`:
// serves the built add-in for production (docs/deploy.md). Prints one line with its URL
// when ready; Ctrl+C (or SIGTERM) stops it.
import { startServer } from "../src/server/app";
import { parseServeArgs, SERVE_USAGE, ServeArgumentError } from "../src/server/serve-args";

async function main(): Promise<void> {
  let options;
  try {
    options = parseServeArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof ServeArgumentError)) throw error;
    console.error(`${error.message}\n${SERVE_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const server = await startServer(options);
  const relay = options.proxyTo ? `; /service/ relays to ${options.proxyTo.href.replace(/\/$/, "")}` : "";
  console.log(`PCD add-in served at ${server.url} (from ${options.dist}${relay})`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(`npm run serve: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
