// The password never reaches storage or a log; tokens never reach a log, a store or an
// error message. A session goes through sign-in (a wrong password first), data, a silent
// renewal (short token lifetime), a renewal after a 401, a hostile service that echoes the
// credentials back in its error bodies, and sign-out; after each step every store, every
// captured log line and every message produced is scanned for the secrets.
import "fake-indexeddb/auto";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createEngine } from "../../src/core/engine";
import type { Engine } from "../../src/core/engine-api";
import type { FetchLike, KeyValueStorage } from "../../src/core/environment";
import { createIdbStorage } from "../../src/core/storage";
import { runWorkbook } from "../../src/headless";
import { FaultLab } from "../resilience/support/fault-lab";

const START = "2026-11-10T18:00:00Z";
const PASSWORD = "Pa55-w0rd!never-store-me";
/** Short enough that a renewal happens within the test (renewed a quarter-lifetime early). */
const TOKEN_TTL_SECONDS = 4;

jest.setTimeout(60_000);

let lab: FaultLab;
let workDir: string;
/** Every text PCD produced: log lines, error messages, statuses. */
const texts: string[] = [];

beforeAll(async () => {
  lab = await FaultLab.start(START, { password: PASSWORD, tokenTtlSeconds: TOKEN_TTL_SECONDS });
  workDir = await mkdtemp(path.join(tmpdir(), "pcd-secrets-"));
});

afterAll(async () => {
  await lab?.close();
  await rm(workDir, { recursive: true, force: true });
});

/** The secrets: the password, every issued token, and each token's signature on its own. */
function secrets(): string[] {
  const tokens = lab.issuedTokens.flatMap((token) => [token, token.split(".")[2] ?? token]);
  return [PASSWORD, ...tokens];
}

async function dump(storage: KeyValueStorage): Promise<string> {
  const entries: string[] = [];
  for (const key of await storage.keys()) entries.push(`${key}=${JSON.stringify(await storage.get(key))}`);
  return entries.join("\n");
}

/** The secrets found in the texts, each with where it was found (empty when none leaked). */
function leaks(where: string, text: string): string[] {
  return secrets()
    .filter((secret) => text.includes(secret))
    .map((secret) => `${where} holds ${secret === PASSWORD ? "the password" : "a token"}`);
}

async function scan(storage: KeyValueStorage, engine: Engine): Promise<string[]> {
  texts.push(JSON.stringify(engine.authStatus()), JSON.stringify(engine.getSettings()));
  return [
    ...leaks("storage", await dump(storage)),
    ...lab.logs.flatMap((line) => leaks(`log line "${line.slice(0, 60)}"`, line)),
    ...texts.flatMap((text) => leaks(`message "${text.slice(0, 60)}"`, text)),
  ];
}

async function message(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return "";
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    texts.push(text);
    return text;
  }
}

/**
 * A service that echoes what it was sent in its error bodies: the Authorization header of a
 * data call, the password of a refused sign-in. What it echoes must not reach a message.
 */
function echoingFetch(inner: FetchLike, echo: { on: boolean }): FetchLike {
  return async (input, init) => {
    if (!echo.on) return inner(input, init);
    const headers = new Headers(init?.headers);
    const said = input.includes("/access_token/")
      ? `wrong password ${String(init?.body)}`
      : `token ${headers.get("Authorization") ?? ""} is not valid for ${input}`;
    await inner(input, init); // the real call happens (and its token is captured)
    return new Response(JSON.stringify({ message: said }), {
      status: input.includes("/access_token/") ? 401 : 500,
      headers: { "content-type": "application/json" },
    });
  };
}

test("sign-in, data, silent renewal, 401 renewal, hostile echoes and sign-out leave no secret anywhere", async () => {
  const storage = createIdbStorage(`pcd-secrets-${randomUUID()}`);
  const echo = { on: false };
  const engine = createEngine(
    {
      fetch: echoingFetch(lab.fetch, echo),
      storage,
      clock: { now: lab.now },
      log: (level, text) => lab.logs.push(`${level}: ${text}`),
    },
    {
      settings: { baseUrl: lab.emulator.url, authUrl: lab.emulator.url },
      batchWindowMs: 5,
      retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 },
    },
  );
  await engine.ready();
  const found: string[] = [];

  // A wrong password, then the right one.
  expect(await message(engine.signIn(lab.emulator.username, `${PASSWORD}-typo`))).toMatch(
    /sign-in|refused|password/i,
  );
  await engine.signIn(lab.emulator.username, PASSWORD);
  const [series] = await engine.catalog("energy_price");
  const request = await engine.resolve(series!.code, null, null);
  await engine.getSeries(request);
  found.push(...(await scan(storage, engine)));

  // The token nears its end (the lab's time, the engine's and the service's, moves on):
  // the next call renews it silently with the remembered password.
  await lab.setClock(new Date(lab.now() + TOKEN_TTL_SECONDS * 1000 - 500).toISOString());
  const [, second] = await engine.catalog("commodity_price");
  await engine.getSeries(await engine.resolve(second!.code, null, null));
  expect(lab.issuedTokens.length).toBeGreaterThanOrEqual(2);
  // The service finds the token expired before the engine expects it: 401, renew, retry.
  await lab.setClock(new Date(lab.now() + 60 * 60_000).toISOString(), false);
  const [, , third] = await engine.catalog("commodity_price");
  await engine.getSeries(await engine.resolve(third!.code, null, null));
  await lab.setClock(new Date(lab.now()).toISOString(), false);
  expect(lab.issuedTokens.length).toBeGreaterThanOrEqual(3);
  found.push(...(await scan(storage, engine)));

  // A hostile service echoes the token and the password back.
  echo.on = true;
  const [, , , fourth] = await engine.catalog("commodity_price");
  expect(await message(engine.getSeries(await engine.resolve(fourth!.code, null, null)))).toMatch(/HTTP 500/);
  expect(await message(engine.signIn(lab.emulator.username, PASSWORD))).not.toBe("");
  echo.on = false;
  found.push(...(await scan(storage, engine)));

  await engine.signIn(lab.emulator.username, PASSWORD);
  await engine.signOut();
  found.push(...(await scan(storage, engine)));
  await engine.signIn(lab.emulator.username, PASSWORD);
  await engine.signOut({ clearCache: true });
  found.push(...(await scan(storage, engine)));

  expect(lab.logs.length).toBeGreaterThan(0);
  expect([...new Set(found)]).toEqual([]);
});

test("the headless runner's cache file and logs hold neither the password nor a token", async () => {
  const cacheFile = path.join(workDir, "cache.json");
  const logs: string[] = [];
  const tokensBefore = lab.issuedTokens.length;
  const report = await runWorkbook({
    formulas: ['=PCD.VALUES("1-2-3")', "=PCD.LIMITS()"],
    baseUrl: lab.emulator.url,
    username: lab.emulator.username,
    password: PASSWORD,
    cacheFile,
    fetch: lab.fetch,
    clock: { now: lab.now },
    log: (level, text) => logs.push(`${level}: ${text}`),
    timeoutMs: 30_000,
  });
  expect(report.settled).toBe(true);
  expect(lab.issuedTokens.length).toBeGreaterThan(tokensBefore);
  const file = await readFile(cacheFile, "utf8");
  expect(file.length).toBeGreaterThan(0);
  const results = JSON.stringify(report);
  expect([
    ...leaks("cache file", file),
    ...leaks("report", results),
    ...logs.flatMap((line) => leaks("log", line)),
  ]).toEqual([]);
});

// A-2 (RELIABILITY.md): a service that echoes only the token's signature (its
// secret part) does not get it into a cell's message: each long token segment is redacted.
test("A-2: a service echoing only the token's signature does not get it into a message", async () => {
  const signatureEcho: FetchLike = async (input, init) => {
    const response = await lab.fetch(input, init);
    if (!/\/export\/series(_hist)?\//.test(input)) return response;
    const token = new Headers(init?.headers).get("Authorization")?.split(".")[2] ?? "";
    return new Response(JSON.stringify({ message: `signature ${token} does not match` }), { status: 500 });
  };
  const storage = createIdbStorage(`pcd-secrets-${randomUUID()}`);
  const engine = createEngine(
    { fetch: signatureEcho, storage, clock: { now: lab.now } },
    {
      settings: { baseUrl: lab.emulator.url, authUrl: lab.emulator.url },
      retry: { maxRetries: 0 },
    },
  );
  await engine.ready();
  await engine.signIn(lab.emulator.username, PASSWORD);
  const [series] = await engine.catalog("industry_economics");
  const text = await message(engine.getSeries(await engine.resolve(series!.code, null, null)));
  expect(text).toMatch(/HTTP 500/);
  expect(leaks("message", text)).toEqual([]);
});
