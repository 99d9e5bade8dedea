// `npm start`: builds the add-in in development mode, serves it over HTTPS on
// https://localhost:3000, starts the local emulator (the development build's service) and
// prints how to sideload manifest.xml. Ctrl+C stops everything.
//   --no-emulator        do not start the emulator (use a service of your own)
//   PCD_EMULATOR_PORT    emulator port (default 3001; the development build's service address follows it)
import path from "node:path";
import { parseArgs } from "node:util";
import webpack, { type Configuration } from "webpack";
import WebpackDevServer from "webpack-dev-server";
import { ensureDevCertificate } from "./dev-certificate";

type ConfigFactory = (env: unknown, argv: { mode: string }) => Configuration;

const root = path.resolve(__dirname, "..");

interface Stoppable {
  close(): Promise<void>;
}

async function startEmulator(): Promise<{ url: string; username: string; password: string } & Stoppable> {
  const port = Number(process.env.PCD_EMULATOR_PORT ?? 3001);
  const { startEmulator: start } = await import("../src/emulator");
  return start({ port, admin: true });
}

function sideloadHelp(
  caPath: string,
  emulator: { url: string; username: string; password: string } | null,
): string {
  return [
    "",
    "PCD add-in: https://localhost:3000/taskpane.html   manifest: manifest.xml",
    // The preview page runs the real task pane and functions on a mock
    // Excel host (src/preview), so PCD can be tried in a browser without Excel.
    "Preview without Excel (grid + task pane): https://localhost:3000/preview.html",
    emulator
      ? `Local service (emulator): ${emulator.url}   sign in as ${emulator.username} / ${emulator.password}`
      : "Emulator not started (--no-emulator): set the service address under Advanced in the task pane.",
    `First time: trust the development CA ${caPath} in your OS or browser certificate store.`,
    "Sideload manifest.xml:",
    "  Excel on the web: Home > Add-ins > More Add-ins > My Add-ins > Upload My Add-in > manifest.xml",
    "  Windows: share a folder holding manifest.xml, add it under File > Options > Trust Center > Trusted Add-in",
    "           Catalogs, restart Excel, then Home > Add-ins > Shared Folder (or: npx office-addin-debugging start manifest.xml)",
    "  Mac: copy manifest.xml to ~/Library/Containers/com.microsoft.Excel/Data/Documents/wef/ and restart Excel",
    "Then open the PCD tab > Series to sign in. Ctrl+C stops the server and the emulator.",
    "",
  ].join("\n");
}

const START_USAGE = "Usage: npm start [-- --no-emulator]";

function parseStartArgs(argv: readonly string[]): { withEmulator: boolean } {
  const { values } = parseArgs({
    args: [...argv],
    options: { "no-emulator": { type: "boolean" } },
    strict: true,
    allowPositionals: false,
  });
  return { withEmulator: values["no-emulator"] !== true };
}

async function main(): Promise<void> {
  let withEmulator: boolean;
  try {
    ({ withEmulator } = parseStartArgs(process.argv.slice(2)));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${START_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const certificate = await ensureDevCertificate(root);
  const emulator = withEmulator ? await startEmulator() : null;

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const configFactory = require(path.join(root, "webpack.config.js")) as ConfigFactory;
  const config = configFactory({}, { mode: "development" });
  const compiler = webpack(config);
  if (!compiler) throw new Error("webpack could not create a compiler");
  let helpShown = false;
  const server = new WebpackDevServer(
    {
      ...config.devServer,
      server: { type: "https", options: { key: certificate.key, cert: certificate.cert } },
    },
    compiler,
  );
  // Printed after webpack's first build report, so the instructions are the last thing on screen.
  compiler.hooks.done.tap("PcdSideloadHelp", () => {
    if (helpShown) return;
    helpShown = true;
    setImmediate(() => console.log(sideloadHelp(certificate.caPath, emulator)));
  });
  await server.start();

  const stop = async (): Promise<void> => {
    await server.stop();
    await emulator?.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop());
  process.once("SIGTERM", () => void stop());
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
