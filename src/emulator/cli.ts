// `npm run emulator -- [flags]`: starts the emulator and prints one ready line with its
// base URL and account; Ctrl+C (SIGINT) or SIGTERM closes it.
import { CLI_USAGE, CliArgumentError, parseCliArgs } from "./cli-args";
import { startEmulator } from "./server";

async function main(): Promise<void> {
  const { help, ...options } = parseCliArgs(process.argv.slice(2));
  if (help) {
    console.log(CLI_USAGE);
    return;
  }
  const emulator = await startEmulator(options);
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    error instanceof CliArgumentError ? `${message}\n${CLI_USAGE}` : `Emulator failed: ${message}`,
  );
  process.exit(1);
});
