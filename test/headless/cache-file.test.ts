// The runner's cache file is data, not configuration: a `pcd:settings` entry in it never
// decides where the password or the data calls go. Addresses come from the command line
// and the environment (or the built-in default), and the runner says which it uses.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FetchLike } from "../../src/core/environment";
import { SETTINGS_STORAGE_KEY } from "../../src/core/settings";
import { LOCAL_EMULATOR_URL } from "../../src/headless/run-workbook";
import { runWorkbook } from "../../src/headless";
import { parseCliArgs } from "../../src/headless/cli-args";
import { loadCacheFile, saveCacheFile } from "../../src/headless/cache-file";
import { COLUMNS_FORMAT, DATA_KEY_PREFIX, DataCache } from "../../src/core/cache";
import { cacheEntry } from "../support/cache-entry";
import { PointColumns } from "../../src/core/point-columns";
import { MemoryStorage } from "../../src/core/storage";

const PLANTED = "http://127.0.0.1:9";
const GIVEN = "http://127.0.0.1:7";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pcd-cache-file-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A cache file whose settings entry points both addresses (and a product path) elsewhere. */
async function plantedCacheFile(name: string, environment = "live"): Promise<string> {
  const file = path.join(dir, name);
  const settings = {
    environment,
    baseUrl: PLANTED,
    authUrl: PLANTED,
    productPaths: { energy_price: "/steal" },
    callTimeoutMs: 5000,
  };
  await writeFile(
    file,
    JSON.stringify({ version: 1, entries: { [SETTINGS_STORAGE_KEY]: settings } }),
    "utf8",
  );
  return file;
}

/** Records every address asked for; answers nothing (no network in this test). */
function recordingFetch(): { fetch: FetchLike; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: async (input) => {
      urls.push(input);
      throw new TypeError("fetch failed");
    },
  };
}

async function run(options: { cacheFile: string; baseUrl?: string; authUrl?: string; sandbox?: boolean }) {
  const { fetch, urls } = recordingFetch();
  const logs: string[] = [];
  const report = await runWorkbook({
    ...options,
    formulas: ["=PCD.LIMITS()"],
    username: "analyst",
    password: "a-password-for-the-real-service",
    fetch,
    clock: { now: () => Date.UTC(2026, 10, 10, 18) },
    log: (level, text) => logs.push(`${level}: ${text}`),
    timeoutMs: 30_000,
  });
  return { report, urls, logs };
}

test("without --base-url/--auth-url the planted addresses are not used: sign-in goes to the built-in default", async () => {
  const { report, urls, logs } = await run({ cacheFile: await plantedCacheFile("no-flags.json") });
  expect(report.signInError).toMatch(/^Sign-in failed: The service at .* could not be reached/);
  expect(urls.length).toBeGreaterThan(0);
  expect(urls.filter((url) => url.startsWith(PLANTED))).toEqual([]);
  // The runner's own default is the local emulator (the engine itself has no address).
  expect(urls[0]).toBe(`${LOCAL_EMULATOR_URL}/access_token/v1`);
  expect(logs).toContain(
    `info: Service addresses: data ${LOCAL_EMULATOR_URL} (built-in default); sign-in ${LOCAL_EMULATOR_URL} (built-in default).`,
  );
  expect(logs).toContainEqual(
    expect.stringMatching(
      /^info: Cache file .*no-flags\.json: its environment, baseUrl, authUrl, productPaths settings are not used; service addresses and live or sandbox come from the command line or the environment only\.$/,
    ),
  );
});

test.each([
  ["a sandbox file without --sandbox: live", "sandbox", false, "live"],
  ["a live file with --sandbox: sandbox", "live", true, "sandbox"],
] as const)("the cache file never sets the environment: %s", async (_name, planted, sandbox, used) => {
  const file = await plantedCacheFile(`environment-${planted}.json`, planted);
  const { report, logs } = await run({ cacheFile: file, baseUrl: GIVEN, sandbox });
  // The report names the environment the engine used, read from the engine.
  expect(report.environment).toBe(used);
  expect(logs).toContainEqual(expect.stringMatching(/its environment, baseUrl, .* settings are not used/));
});

test("with --base-url the given address is used and said; other settings of the file still apply", async () => {
  const file = await plantedCacheFile("base-url.json");
  const { urls, logs } = await run({ cacheFile: file, baseUrl: GIVEN });
  expect(urls.filter((url) => url.startsWith(PLANTED))).toEqual([]);
  expect(urls[0]).toBe(`${GIVEN}/access_token/v1`);
  expect(logs).toContain(
    `info: Service addresses: data ${GIVEN} (--base-url or PCD_BASE_URL); sign-in ${GIVEN} (the data address).`,
  );
  // The file written back holds the runner's addresses, never the planted ones, and the
  // planted entry's other settings (a timeout) survived.
  const saved = JSON.parse(await readFile(file, "utf8")) as {
    entries: Record<string, Record<string, unknown>>;
  };
  const settings = saved.entries[SETTINGS_STORAGE_KEY] ?? {};
  expect(JSON.stringify(settings)).not.toContain(PLANTED);
  expect(settings.callTimeoutMs).toBe(5000);
});

test("addresses from the environment: PCD_BASE_URL and PCD_AUTH_URL, flags win", async () => {
  const fromEnv = parseCliArgs(["=PCD.LIMITS()"], { PCD_BASE_URL: GIVEN, PCD_AUTH_URL: `${GIVEN}/auth` });
  expect(fromEnv).toMatchObject({ baseUrl: GIVEN, authUrl: `${GIVEN}/auth` });
  expect(parseCliArgs(["--base-url", PLANTED, "=PCD.LIMITS()"], { PCD_BASE_URL: GIVEN }).baseUrl).toBe(
    PLANTED,
  );
  const { urls, logs } = await run({
    cacheFile: await plantedCacheFile("env.json"),
    baseUrl: fromEnv.baseUrl,
    authUrl: fromEnv.authUrl,
  });
  expect(urls[0]).toBe(`${GIVEN}/auth/access_token/v1`);
  expect(logs).toContain(
    `info: Service addresses: data ${GIVEN} (--base-url or PCD_BASE_URL); sign-in ${GIVEN}/auth (--auth-url or PCD_AUTH_URL).`,
  );
});

test("a cached series survives the file: its values column is written as a list of numbers and read back as it was", async () => {
  const entry = cacheEntry("live|energy_price|1-1-1|default|default", 1, {
    finals: PointColumns.fromPoints([
      { month: "2026-08", value: 1 / 3 },
      { month: "2026-10", value: -2.5e-7 },
    ]),
    forecasts: PointColumns.fromPoints([{ month: "2026-11", value: 1e21 }]),
    historyAsOf: "2026-11-04",
  });
  const storage = new MemoryStorage();
  await new DataCache(storage).put(entry);
  const file = path.join(dir, "columns.json");
  expect(await saveCacheFile(file, storage)).toBe(1);
  const written = JSON.parse(await readFile(file, "utf8")) as {
    entries: Record<string, { format: number; finals: { values: unknown } }>;
  };
  const stored = written.entries[DATA_KEY_PREFIX + entry.key];
  expect(stored?.format).toBe(COLUMNS_FORMAT);
  expect(stored?.finals.values).toEqual([1 / 3, -2.5e-7]);

  const reloaded = new MemoryStorage();
  expect(await loadCacheFile(file, reloaded)).toBe(1);
  const cache = new DataCache(reloaded);
  await cache.load();
  expect(cache.get(entry.key)).toEqual(entry);
});
