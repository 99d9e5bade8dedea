// `npm run gateway` as an administrator runs it, against the emulator: three members added with
// passwords on standard input, the gateway started with the Developer account in its environment
// (its one ready line), a member's data through it, a restart on the same directory that buys
// nothing, and the usage report whose total equals the service's charge.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { allowancePeriodAt } from "../../src/gateway/members/allowance-period";
import { catalogOf, startService, totalDataRequests, type ServiceUnderTest } from "./support/team";
import { typescriptProcessArgs } from "../support/typescript-process";

const GATEWAY = path.resolve(__dirname, "../../scripts/gateway.ts");
const MEMBERS = ["ann@example.com", "bob@example.com", "cid@example.com"];
const PASSWORD = "correct horse battery staple";

// Eight processes one after another, each opening the PGlite directory (the first creates the
// database): on a busy 2-core machine that is more than the lane's 30 s.
jest.setTimeout(180_000);

let service: ServiceUnderTest;
let directory: string;
let codes: string[];

function command(args: string[], stdin = ""): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, typescriptProcessArgs(GATEWAY, ...args), {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

interface Served {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts the gateway and resolves with its address once it prints its ready line. */
function serve(...flags: string[]): Promise<Served> {
  const child: ChildProcess = spawn(
    process.execPath,
    typescriptProcessArgs(
      GATEWAY,
      "--port",
      "0",
      "--upstream",
      service.emulator.url,
      "--database",
      directory,
      ...flags,
    ),
    {
      env: {
        ...process.env,
        PCD_UPSTREAM_USERNAME: service.emulator.username,
        PCD_UPSTREAM_PASSWORD: service.emulator.password,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      const ready = /PCD gateway listening at (http:\/\/\S+)/.exec(output);
      if (ready?.[1] !== undefined) {
        resolve({
          url: ready[1],
          output: () => output,
          stop: async () => {
            child.kill("SIGTERM");
            await exited;
          },
        });
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("close", (code) =>
      reject(new Error(`The gateway exited (${String(code)}) before it was ready:\n${output}`)),
    );
  });
}

async function ask(url: string, member: string, pathname: string): Promise<number> {
  const signIn = await fetch(`${url}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: member, password: PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const response = await fetch(`${url}/api${pathname}`, { headers: { authorization: `Bearer ${token}` } });
  return response.status;
}

beforeAll(async () => {
  service = await startService();
  codes = (await catalogOf(service, "energy_price")).map((record) => record.code).slice(0, 3);
  directory = await mkdtemp(path.join(tmpdir(), "pcd-gateway-cli-"));
});

afterAll(async () => {
  await service.close();
  await rm(directory, { recursive: true, force: true });
});

test("add three members, serve, restart, and report usage", async () => {
  for (const member of MEMBERS) {
    const added = await command(["user", "add", member, "--database", directory], `${PASSWORD}\n`);
    expect(added.code).toBe(0);
    expect(added.stdout + added.stderr).not.toContain(PASSWORD);
  }
  const listed = await command(["user", "list", "--database", directory]);
  for (const member of MEMBERS) expect(listed.stdout).toContain(member);

  const before = totalDataRequests(await service.stats());
  const values = `/energy_price/v1/export/series/${codes.join(",")}`;
  const startedAt = new Date();
  let gateway = await serve();
  try {
    for (const member of MEMBERS) expect(await ask(gateway.url, member, values)).toBe(200);
  } finally {
    await gateway.stop();
  }
  expect(totalDataRequests(await service.stats()) - before).toBe(codes.length);
  // Neither a front end given nor TLS: the gateway cannot tell its clients apart, and says so.
  const unlimited = "Sign-in: failed password checks are not limited per client";
  expect(gateway.output()).toContain(unlimited);

  gateway = await serve("--trust-proxy", "127.0.0.1,::1", "--release-day", "5");
  try {
    expect(await ask(gateway.url, "bob@example.com", values)).toBe(200);
  } finally {
    await gateway.stop();
  }
  // The first day given is kept without a word; another one replacing it is said.
  expect(gateway.output()).not.toContain("Budgets now reset");
  expect(totalDataRequests(await service.stats()) - before).toBe(codes.length);
  expect(gateway.output()).not.toContain(service.emulator.password);
  expect(gateway.output()).not.toContain(unlimited);

  // The gateway process keeps the real clock: its purchases are in the allowance period under
  // way, counted by the release day the gateway keeps (both periods, should a release have
  // begun during the test).
  const periods = new Set([startedAt, new Date()].map((at) => allowancePeriodAt(at, 5).name));
  const reports = [];
  for (const month of periods) {
    const usage = await command(["usage", "--month", month, "--json", "--database", directory]);
    expect(usage.code).toBe(0);
    reports.push(
      JSON.parse(usage.stdout) as {
        releaseDay: number;
        rows: Array<{ member: string; purchased: number; fromCache: number }>;
        totals: { purchased: number };
      },
    );
  }
  const rows = reports.flatMap((report) => report.rows);
  const sum = (member: string, field: "purchased" | "fromCache") =>
    rows.filter((row) => row.member === member).reduce((total, row) => total + row[field], 0);
  expect(reports.map((report) => report.releaseDay)).toEqual([...periods].map(() => 5));
  // The first member bought the series; the others were served from the store, before and after the restart.
  expect(reports.reduce((total, report) => total + report.totals.purchased, 0)).toBe(codes.length);
  expect(sum("ann@example.com", "purchased")).toBe(codes.length);
  expect(sum("bob@example.com", "fromCache")).toBe(2 * codes.length);

  gateway = await serve("--release-day", "4");
  await gateway.stop();
  expect(gateway.output()).toContain(
    "Budgets now reset on the release's business day 4 (was 5), for every instance on this database and the usage report: restart the instances that were already running.",
  );
});

test("without the Developer account the gateway says what is missing and exits 2", async () => {
  const missing = await command(["--upstream", service.emulator.url, "--database", directory]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/PCD_UPSTREAM_USERNAME and PCD_UPSTREAM_PASSWORD/);
});
