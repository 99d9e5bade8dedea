// The emulator in a process of its own, so generating and serialising responses does not
// compete with the engine for the benchmark's event loop (the client's CPU is measured).
// Spawned by emulator-host.ts with the options as JSON in BENCH_EMULATOR_OPTIONS; prints
// one JSON line {url, username, password} when ready and closes on SIGTERM.
import { startEmulator, type EmulatorOptions } from "../src/emulator";

async function main(): Promise<void> {
  const options = JSON.parse(process.env.BENCH_EMULATOR_OPTIONS ?? "{}") as Partial<EmulatorOptions>;
  // The benchmark's service runs on the run's pinned clock: on the real one its maintenance
  // and release days would follow today's date.
  if (options.now === undefined) throw new Error("BENCH_EMULATOR_OPTIONS has no 'now' (the run's clock)");
  const emulator = await startEmulator({ ...options, now: options.now, quiet: true });
  process.stdout.write(
    `${JSON.stringify({ url: emulator.url, username: emulator.username, password: emulator.password })}\n`,
  );
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  // The parent going away must not leave an emulator behind.
  process.stdin.on("end", stop);
  process.stdin.resume();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Emulator process failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
