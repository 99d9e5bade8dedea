// The runner end to end: real functions, real engine (fake-indexeddb storage), the
// emulator over HTTP on 127.0.0.1. Cold and warm passes, a cache file across runs, the
// month-start refresh, mixed products/options/duplicates, two time zones, exit codes.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { SPEC_INFO_FIELDS } from "../../src/core/info-fields";
import { isoDateToSerial } from "../../src/functions/excel-dates";
import { runWorkbook, type FormulaResult, type RunOptions } from "../../src/headless";
import { typescriptProcessArgs } from "../support/typescript-process";

// A Tuesday after November's release day, away from maintenance days: both clocks start here.
const START = "2026-11-10T15:00:00Z";

interface CatalogRecord {
  code: string;
  default_currency: string;
  default_unit: string;
  available_currencies: string;
  available_units: string;
}

let emulator: RunningEmulator;
let workDir: string;
let clockOffsetMs = 0;
const engineClock = { now: () => Date.now() + clockOffsetMs };
let codes: { energy: CatalogRecord; commodity: CatalogRecord; utility: CatalogRecord; index: CatalogRecord };

async function admin(
  method: "GET" | "POST",
  route: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${emulator.url}/__admin/${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function syncClock(): Promise<void> {
  const { now } = (await admin("GET", "clock")) as { now: string };
  clockOffsetMs = Date.parse(now) - Date.now();
}

async function catalog(product: string, token: string): Promise<CatalogRecord[]> {
  const response = await fetch(`${emulator.url}/${product}/v1/export/series`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await response.json()) as CatalogRecord[];
}

function run(options: Partial<RunOptions> & Pick<RunOptions, "formulas">): ReturnType<typeof runWorkbook> {
  return runWorkbook({
    baseUrl: emulator.url,
    username: emulator.username,
    password: emulator.password,
    clock: engineClock,
    log: () => undefined,
    timeoutMs: 60_000,
    ...options,
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, now: START, port: 0, host: "127.0.0.1" });
  workDir = await mkdtemp(path.join(tmpdir(), "pcd-recalc-"));
  await syncClock();
  const tokenResponse = await fetch(`${emulator.url}/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: emulator.username, password: emulator.password }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const [energy, commodity, industry] = await Promise.all(
    ["energy_price", "commodity_price", "industry_economics"].map((product) => catalog(product, token)),
  );
  const first = <T>(items: T[] | undefined, what: string, test: (item: T) => boolean = () => true): T => {
    const found = items?.find(test);
    if (!found) throw new Error(`the emulator catalog has no ${what}`);
    return found;
  };
  codes = {
    energy: first(energy, "energy series", (r) => r.available_currencies.split(",").length > 1),
    commodity: first(commodity, "commodity series"),
    utility: first(industry, "utility series", (r) => !["", "n/a", "-"].includes(r.available_units)),
    index: first(industry, "cost index", (r) => ["", "n/a", "-"].includes(r.available_currencies)),
  };
});

afterAll(async () => {
  await emulator.close();
  await rm(workDir, { recursive: true, force: true });
});

function workbook(): string[] {
  const { energy, commodity, utility, index } = codes;
  const otherCurrency = energy.available_currencies.split(",").find((c) => c !== energy.default_currency);
  const otherUnit =
    energy.available_units.split(",").find((u) => u !== energy.default_unit) ?? energy.default_unit;
  return [
    `=PCD.VALUES("${energy.code}")`,
    `=PCD.VALUES("${energy.code}","${energy.default_currency.toLowerCase()}")`,
    `=PCD.VALUE("${energy.code}")`,
    `=PCD.VALUES("${energy.code}","${otherCurrency}","${otherUnit}",DATE(2024,1,1),"2024-06",0,0,1)`,
    `=PCD.VALUE("${commodity.code}","2024-01")`,
    `=PCD.VALUES("${utility.code}",,,"2025-01","2025-03",2)`,
    `=PCD.VALUE("${index.code}")`,
    `=PCD.INFO("${energy.code}","default currency")`,
    `=PCD.VALUE("${energy.code}",,"${otherCurrency}","no-such-unit")`,
  ];
}
/** Distinct request keys of workbook(): energy default, energy other currency/unit, commodity, utility, index. */
const DISTINCT_KEYS = 5;
/**
 * What they need (the window is the 13 months to the latest final, late 2025 onwards):
 * energy default, whole tables: History + Series Values; energy in another currency,
 * 2024 only: History; commodity 2024-01: History; utility 2025-01..03: History; the cost
 * index's latest value: Series Values.
 */
const NEEDED_REQUESTS = 6;

interface ServiceStats {
  calls: Record<string, number>;
  dataRequests: Record<string, number>;
}

function callsBetween(before: ServiceStats, after: ServiceStats): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after.calls).map(([operation, count]) => [
      operation,
      count - (before.calls[operation] ?? 0),
    ]),
  );
}

function chargedBetween(before: ServiceStats, after: ServiceStats): number {
  const sum = (stats: ServiceStats) => Object.values(stats.dataRequests).reduce((a, b) => a + b, 0);
  return sum(after) - sum(before);
}

const valueOf = (result: FormulaResult | undefined): unknown =>
  result && "value" in result ? result.value : result?.error;

describe("passes against the emulator", () => {
  const cacheFile = (): string => path.join(workDir, "cache.json");
  let cold: Awaited<ReturnType<typeof runWorkbook>>;

  beforeAll(async () => {
    cold = await run({ formulas: workbook(), passes: 2, cacheFile: cacheFile() });
  });

  test("cold: each key buys the parts its cells read, shared by duplicates and spelled-out defaults", () => {
    const [first] = cold.passes;
    expect(cold.settled).toBe(true);
    expect(first?.dataRequests).toBe(NEEDED_REQUESTS);
    expect(first?.http.series_info).toBeLessThanOrEqual(3);
    const results = first?.results ?? [];
    expect(valueOf(results[1])).toEqual(valueOf(results[0]));
    const table = valueOf(results[0]) as unknown[][];
    expect(table[0]).toEqual(["Date", expect.stringMatching(/^Value \(\w+\/\w+\)$/), "Status"]);
    const finals = table.filter((row) => row[2] === "final");
    expect(valueOf(results[2])).toBe(finals.at(-1)?.[1]);
    expect(finals[0]?.[0]).toBe(39083); // series start in 2007-01
  });

  test("cold: options, date ranges and layouts shape the cells", () => {
    const results = cold.passes[0]?.results ?? [];
    const converted = valueOf(results[3]) as unknown[][];
    expect(converted.map((row) => row[0])).toEqual([45444, 45413, 45383, 45352, 45323, 45292]);
    expect(converted.every((row) => row.length === 2 && typeof row[1] === "number")).toBe(true);
    expect(typeof valueOf(results[4])).toBe("number");
    const utility = valueOf(results[5]) as unknown[][];
    expect(String(utility[0]?.[0])).toMatch(new RegExp(`^${codes.utility.code} .+\\(.+/.+\\)$`));
    // The Value header names the same currency/unit as the identifier line.
    const measure = /\((.+\/.+)\)$/.exec(String(utility[0]?.[0]))?.[1];
    expect(utility[1]).toEqual(["Date", `Value (${measure})`, "Status"]);
    expect(utility.slice(2).map((row) => row[0])).toEqual([45658, 45689, 45717]);
    expect(typeof valueOf(results[6])).toBe("number");
    expect(valueOf(results[7])).toBe(codes.energy.default_currency);
    expect(results[8]).toEqual({
      formula: expect.any(String),
      error: { type: "#VALUE!", message: expect.stringContaining("no-such-unit") },
    });
  });

  test("warm: the second pass sends no data call", () => {
    const second = cold.passes[1];
    expect(second?.dataRequests).toBe(0);
    expect(second?.http.series_values).toBe(0);
    expect(second?.http.series_hist).toBe(0);
    expect(second?.results).toEqual(cold.passes[0]?.results);
  });

  test("warm from the cache file in a new run: no data call, same cells", async () => {
    const warm = await run({ formulas: workbook(), cacheFile: cacheFile() });
    expect(warm.passes[0]?.dataRequests).toBe(0);
    expect(warm.passes[0]?.http).toMatchObject({ series_values: 0, series_hist: 0, series_info: 0 });
    expect(warm.passes[0]?.results).toEqual(cold.passes[0]?.results);
  });

  test("month-start refresh fetches only the series that changed, then cells update with no data call", async () => {
    await admin("POST", "release", { unchanged: [codes.commodity.code] });
    await syncClock();
    const statsBefore = (await admin("GET", "stats")) as unknown as ServiceStats;
    const refreshed = await run({ formulas: workbook(), cacheFile: cacheFile(), refresh: true });
    const statsAfter = (await admin("GET", "stats")) as unknown as ServiceStats;
    // The report counts every call and data request the service saw: sign-in, refresh, passes.
    // A Data Limits read ahead (free, fire-and-forget) may still be on its way when the run
    // reports: it is counted once answered, so the report can be one short of the service.
    const seen = callsBetween(statsBefore, statsAfter);
    const { data_limits: limitsSeen, ...dataAndCatalog } = seen;
    expect(refreshed.total).toMatchObject({ http: dataAndCatalog, dataRequestsUnconfirmed: 0 });
    expect(refreshed.total.http.data_limits).toBeLessThanOrEqual(limitsSeen ?? 0);
    expect(refreshed.total.http.data_limits).toBeGreaterThanOrEqual((limitsSeen ?? 0) - 1);
    expect(refreshed.total.dataRequests).toBe(chargedBetween(statsBefore, statsAfter));
    expect(refreshed.refresh?.dataRequests).toBeGreaterThan(0);
    expect(refreshed.signIn.http.access_token).toBe(1);
    const phases = [refreshed.signIn, refreshed.refresh, ...refreshed.passes];
    expect(phases.reduce((sum, phase) => sum + (phase?.dataRequests ?? 0), 0)).toBe(
      refreshed.total.dataRequests,
    );
    // Keys whose cells read only History months are not bought again for a new month.
    expect(refreshed.refresh).toMatchObject({ failed: 0 });
    const { updated = 0, revised = 0, unchanged = 0 } = refreshed.refresh ?? {};
    expect(updated + revised + unchanged).toBe(DISTINCT_KEYS);
    expect(updated + revised).toBeGreaterThanOrEqual(2);
    const pass = refreshed.passes[0];
    expect(pass?.dataRequests).toBe(0);
    const before = valueOf(cold.passes[0]?.results[0]) as unknown[][];
    const after = valueOf(pass?.results[0]) as unknown[][];
    const finalsOf = (table: unknown[][]) => table.filter((row) => row[2] === "final").length;
    expect(finalsOf(after)).toBe(finalsOf(before) + 1);
    expect(valueOf(pass?.results[4])).toBe(valueOf(cold.passes[0]?.results[4]));
  });
});

test("hundreds of VALUE cells over a few series cost one data request per series", async () => {
  const series = [codes.energy.code, codes.commodity.code, codes.utility.code];
  const formulas = series.flatMap((code) =>
    Array.from(
      { length: 120 },
      (_, i) => `=PCD.VALUE("${code}",DATE(${2010 + Math.floor(i / 12)},${(i % 12) + 1},1))`,
    ),
  );
  const report = await run({ formulas });
  const [pass] = report.passes;
  expect(pass?.dataRequests).toBe(series.length);
  expect(pass?.results.every((result) => "value" in result && typeof result.value === "number")).toBe(true);
});

describe("the CLI", () => {
  const cli = path.join(__dirname, "..", "..", "src", "headless", "cli.ts");

  function recalc(
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        typescriptProcessArgs(cli, ...args),
        {
          env: {
            ...process.env,
            PCD_BASE_URL: emulator.url,
            PCD_USERNAME: emulator.username,
            PCD_PASSWORD: emulator.password,
            // The engine judges maintenance days by its clock: the emulator's date, not today's.
            PCD_NOW: new Date(engineClock.now()).toISOString(),
            ...env,
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  test.each(["Pacific/Kiritimati", "America/Los_Angeles"])(
    "in time zone %s, dates are the same serials and --json is one document",
    async (zone) => {
      const { energy } = codes;
      const { code, stdout } = await recalc(
        [
          "--json",
          `=PCD.VALUES("${energy.code}",,,DATE(2024,1,1),"2024-03-31",0,0)`,
          `=PCD.VALUE("${energy.code}",DATE(2024,2,29))`,
          `=PCD.INFO("${energy.code}","last_available_final")`,
        ],
        { TZ: zone },
      );
      expect(code).toBe(0);
      const document = JSON.parse(stdout) as { passes: Array<{ results: FormulaResult[] }> };
      const [table, feb, lastFinal] = document.passes[0]?.results ?? [];
      const rows = valueOf(table) as unknown[][];
      expect(rows.map((row) => row[0])).toEqual([45292, 45323, 45352]);
      expect(valueOf(feb)).toBe(rows[1]?.[1]);
      const { latestConcludedMonth } = (await admin("GET", "clock")) as { latestConcludedMonth: string };
      expect(valueOf(lastFinal)).toBe(isoDateToSerial(latestConcludedMonth));
    },
  );

  test("usage errors exit 2 with the usage text", async () => {
    const { code, stderr } = await recalc(["--passes", "x", "=PCD.LIMITS()"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--passes must be a whole number/);
    expect(stderr).toMatch(/Usage: npm run recalc/);
  });

  test("a pass that does not settle exits 3 listing the stuck formulas", async () => {
    // History never answers within the run, and the run's 8 s leave sign-in and the catalog
    // room on a loaded machine: the formula, not the sign-in, is what is left unfinished.
    await admin("POST", "faults", { operation: "series_hist", mode: "latency", latencyMs: 60_000 });
    try {
      const formula = `=PCD.VALUE("${codes.index.code}", "2020-01")`;
      const { code, stderr } = await recalc([
        "--timeout",
        "8",
        "--cache",
        path.join(workDir, "stuck.json"),
        formula,
      ]);
      expect(code).toBe(3);
      expect(stderr).toContain(`Did not finish within the timeout:\n  ${formula}`);
    } finally {
      await fetch(`${emulator.url}/__admin/faults`, { method: "DELETE" });
    }
  });
});

describe("real-shape variants of the service (docs/service.md §6)", () => {
  let variant: RunningEmulator;

  beforeAll(async () => {
    variant = await startEmulator({
      quiet: true,
      now: START,
      boolStrings: true,
      naMarker: "-",
      extraFields: true,
      order: "shuffled",
      duplicateDates: true,
      historyEndsBeforeValues: true,
    });
  });
  afterAll(() => variant.close());

  test("tables stay sorted and complete, INFO shows booleans as TRUE/FALSE and markers as sent", async () => {
    const { code } = codes.energy;
    const report = await runWorkbook({
      baseUrl: variant.url,
      username: variant.username,
      password: variant.password,
      clock: { now: () => Date.parse(START) },
      log: () => undefined,
      timeoutMs: 60_000,
      formulas: [
        `=PCD.VALUES("${code}",,,,,0,0)`,
        `=PCD.INFO("${code}")`,
        `=PCD.INFO("${code}","has_forecast")`,
        `=PCD.INFO("${code}","last_available_final")`,
      ],
    });
    const [values, record, hasForecast, lastFinal] = report.passes[0]?.results ?? [];
    const rows = valueOf(values) as number[][];
    const dates = rows.map((row) => row[0] as number);
    expect(dates[0]).toBe(39083);
    expect(dates.at(-1)).toBe(valueOf(lastFinal));
    for (let i = 1; i < dates.length; i += 1) {
      const gap = (dates[i] as number) - (dates[i - 1] as number);
      expect(gap).toBeGreaterThanOrEqual(28);
      expect(gap).toBeLessThanOrEqual(31);
    }
    const table = valueOf(record) as unknown[][];
    expect(table.slice(0, SPEC_INFO_FIELDS.length).map((row) => row[0])).toEqual([...SPEC_INFO_FIELDS]);
    expect(typeof valueOf(hasForecast)).toBe("boolean");
    expect(table.some((row) => row[1] === "-")).toBe(true);
  });
});

describe("a key whose cells need different months", () => {
  const cacheFile = (): string => path.join(workDir, "mixed-needs.json");
  /** Each key's last cell needs less than the others: an old month, a half year of 2019. */
  function mixedNeeds(): string[] {
    const { energy, commodity } = codes;
    return [
      `=PCD.VALUES("${energy.code}")`,
      `=PCD.VALUE("${energy.code}",DATE(2013,10,1))`,
      `=PCD.VALUE("${commodity.code}")`,
      `=PCD.VALUES("${commodity.code}",,,DATE(2019,1,1),"2019-06")`,
    ];
  }

  test("refresh-all after a release buys what every cell needs: the recalculation after it makes no data call", async () => {
    const cold = await run({ formulas: mixedNeeds(), cacheFile: cacheFile() });
    expect(cold.settled).toBe(true);
    expect(cold.passes[0]?.dataRequests).toBeGreaterThan(0);

    // The release comes with the clock: December's, a month after the start. (A second
    // /__admin/release in November would publish finals for December while it is still
    // November, which PCD refuses as a month in the future.)
    await admin("POST", "clock", { now: "2026-12-10T15:00:00Z" });
    await syncClock();
    const refreshed = await run({ formulas: mixedNeeds(), cacheFile: cacheFile(), refresh: true });
    expect(refreshed.refresh).toMatchObject({ failed: 0 });
    expect(refreshed.refresh?.dataRequests).toBeGreaterThan(0);
    const pass = refreshed.passes[0];
    expect(pass?.dataRequests).toBe(0);
    expect(pass?.http).toMatchObject({ series_values: 0, series_hist: 0 });
    // The refreshed tables end with the release's new month.
    const before = valueOf(cold.passes[0]?.results[0]) as unknown[][];
    const after = valueOf(pass?.results[0]) as unknown[][];
    const finalsOf = (table: unknown[][]) => table.filter((row) => row[2] === "final").length;
    expect(finalsOf(after)).toBe(finalsOf(before) + 1);
  });
});

describe("--refresh with a cache file that lists other series", () => {
  const cacheFile = (): string => path.join(workDir, "other-series.json");

  test("refreshes the series of the formulas given, not every key the cache file lists", async () => {
    const { energy, commodity } = codes;
    const both = [`=PCD.VALUE("${energy.code}")`, `=PCD.VALUE("${commodity.code}")`];
    const cold = await run({ formulas: both, cacheFile: cacheFile() });
    expect(cold.settled).toBe(true);
    // A release by the clock (January's): a further /__admin/release would publish finals
    // for a month still to come, which PCD refuses.
    await admin("POST", "clock", { now: "2027-01-12T15:00:00Z" });
    await syncClock();
    const refreshed = await run({ formulas: [both[0] ?? ""], cacheFile: cacheFile(), refresh: true });
    const { updated = 0, revised = 0, unchanged = 0, failed = 0 } = refreshed.refresh ?? {};
    expect(updated + revised + unchanged + failed).toBe(1);
    expect(refreshed.refresh?.dataRequests).toBe(1);
    expect(refreshed.passes[0]?.dataRequests).toBe(0);
  });
});
