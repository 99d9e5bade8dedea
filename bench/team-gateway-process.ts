// W7's gateway in a process of its own (as `npm run gateway` runs it), so that the members'
// runners and the load generator do not share its event loop. Spawned by team-gateway-host.ts
// with its settings as JSON in BENCH_TEAM_GATEWAY (passwords and the database address stay out
// of the command line). Opens a fresh store, adds the members, prints one JSON line {url} when
// listening; each "usage" line on stdin is answered with a JSON line of its CPU and memory,
// each "calls" line with the calls it sent the service so far (the evidence behind the
// service's counters); closes when stdin ends or on SIGTERM.
import { createInterface } from "node:readline";
import { startGateway, type RunningGateway } from "../src/gateway/gateway-app";
import { openGatewayStore } from "../src/gateway/store/sql-gateway-store";
import { CallLog, type LoggedCall } from "./call-log";

export interface TeamGatewaySettings {
  /** The service (the emulator) and its Developer account. */
  upstream: { url: string; username: string; password: string };
  /** openGatewayStore's spec: "memory://" (PGlite in memory) or a postgres:// address. */
  database: string;
  /** Added to Date.now(): the run's pinned clock. */
  clockOffsetMs: number;
  members: string[];
  memberPassword: string;
}

export interface GatewayProcessUsage {
  cpuMs: number;
  rssMiB: number;
  maxRssMiB: number;
}

export interface GatewayUpstreamCalls {
  /** Date.now() at the log's origin: a call started at originAt + startMs. */
  originAt: number;
  calls: LoggedCall[];
}

function usage(): GatewayProcessUsage {
  const cpu = process.cpuUsage();
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssMiB: process.memoryUsage.rss() / 1024 / 1024,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

async function main(): Promise<void> {
  const text = process.env.BENCH_TEAM_GATEWAY;
  if (text === undefined || text === "") throw new Error("team-gateway-process needs BENCH_TEAM_GATEWAY");
  const settings = JSON.parse(text) as TeamGatewaySettings;
  const now = (): number => Date.now() + settings.clockOffsetMs;
  const log = new CallLog();
  const logged = log.wrap((input, init) => fetch(input, init));
  const store = await openGatewayStore(settings.database);
  let gateway: RunningGateway;
  try {
    for (const member of settings.members) {
      await store.members.save(member, settings.memberPassword, { budget: null, admin: false });
    }
    gateway = await startGateway(
      {
        upstream: {
          base: settings.upstream.url,
          auth: settings.upstream.url,
          credentials: { username: settings.upstream.username, password: settings.upstream.password },
          fetch: (input, init) =>
            logged(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, init),
          now,
        },
        store,
        now,
      },
      { port: 0, host: "127.0.0.1" },
    );
  } catch (error) {
    // Closed here so that a failed start ends the process with its exit code.
    await store.close();
    throw error;
  }
  process.stdout.write(`${JSON.stringify({ url: gateway.url })}\n`);
  const lines = createInterface({ input: process.stdin });
  let closing: Promise<void> | undefined;
  const stop = (): void => {
    // The process ends by itself once nothing holds it open, after what it wrote is out.
    closing ??= gateway
      .close()
      .then(() => store.close())
      .then(() => {
        lines.close();
        process.stdin.destroy();
      });
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  lines.on("line", (line) => {
    const command = line.trim();
    if (command === "usage") process.stdout.write(`${JSON.stringify(usage())}\n`);
    if (command === "calls") {
      const calls: GatewayUpstreamCalls = { originAt: Date.now() - log.now(), calls: log.calls };
      process.stdout.write(`${JSON.stringify(calls)}\n`);
    }
  });
  // The parent going away must not leave a gateway behind.
  lines.on("close", stop);
}

main().catch((error: unknown) => {
  // A message only: the settings hold passwords.
  process.stderr.write(
    `team-gateway-process failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});
