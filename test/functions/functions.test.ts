// The real functions.ts exports, called as Excel calls them (null for omitted arguments,
// a streaming invocation last), on the real engine over an in-memory service: the messages
// asserted are the engine's own.
import { LIMITS_MAX_AGE_MS } from "../../src/core/engine-core";
import { PcdError } from "../../src/core/errors";
import type { ProductId } from "../../src/core/model";
import { info, limits, search, value, values } from "../../src/functions/functions";
import { installCustomFunctionsShim } from "../../src/headless/custom-functions-shim";
import { setEngine } from "../../src/host/shared-engine";
import type { RecordedCall } from "../core/support/fake-service";
import { realEngine, type RealEngine, type SeriesSetup } from "./support/real-engine";

interface Invocation {
  results: unknown[];
  setResult(value: unknown): void;
  onCanceled?: () => void;
}

/** Every invocation of a test is cancelled after it, as Excel does when a formula goes away. */
const created: Invocation[] = [];
afterEach(() => {
  for (const inv of created.splice(0)) inv.onCanceled?.();
});

function invocation(): Invocation & CustomFunctions.StreamingInvocation<never> {
  const results: unknown[] = [];
  const inv = { results, setResult: (result: unknown) => results.push(result) } as Invocation;
  created.push(inv);
  return inv as Invocation & CustomFunctions.StreamingInvocation<never>;
}

/** Lets the cells, the engine's batch window and its change events run to rest. */
async function settle(): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 2));
    await h.engine.idle();
    h.tick();
  }
}

/** The latest result as plain data: errors as {type, message}. */
function latest(inv: Invocation): unknown {
  const result = inv.results.at(-1);
  if (result instanceof CustomFunctions.Error) return { type: result.code, message: result.message };
  return result;
}

const GAS: SeriesSetup = {
  info: {
    code: "68520-8-1",
    assessment: "Natural gas, Germany",
    raw: { code: "68520-8-1", has_forecast: "True", updated_at: "2026-11-04", area: "-" },
  },
  finals: { "2026-08": 30, "2026-09": 31, "2026-10": 32 },
  forecasts: { "2026-11": 40, "2026-12": 41 },
};
const INDEX: SeriesSetup = {
  info: {
    code: "912-5-2",
    product: "industry_economics",
    dataType: "cost_index",
    coverage: "Germany",
    defaultCurrency: null,
    defaultUnit: null,
    availableCurrencies: [],
    availableUnits: [],
  },
  finals: { "2026-09": 1.5, "2026-10": 1.75 },
};
const LIMITS = {
  energy_price: { Germany: { remaining: 480, total: 500 } },
  industry_economics: { Germany: { remaining: 45, total: 50 } },
  commodity_price: { Polymers: { remaining: 300, total: 300 } },
};

let h: RealEngine;

beforeAll(() => installCustomFunctionsShim());
beforeEach(() => {
  h = realEngine([GAS, INDEX], LIMITS);
  setEngine(h.engine);
});
afterAll(() => setEngine(undefined));

type Call = (inv: Invocation & CustomFunctions.StreamingInvocation<never>) => void;
// Excel serials of the first days of 2026-08 .. 2026-12.
const AUG = 46235;
const SEP = 46266;
const OCT = 46296;
const NOV = 46327;
const DEC = 46357;

test.each<[string, Call, unknown]>([
  [
    "VALUES with defaults",
    (inv) =>
      values("68520-8-1", null, null, null, null, null as never, null as never, null as never, null, inv),
    [
      ["Date", "Value (EUR/MWh)", "Status"],
      [AUG, 30, "final"],
      [SEP, 31, "final"],
      [OCT, 32, "final"],
      [NOV, 40, "forecast"],
      [DEC, 41, "forecast"],
    ],
  ],
  [
    "VALUES spelled-out default currency, text dates, finals only, newest first, no headers",
    (inv) => values("68520-8-1", "eur", "MWH", "2026-09", "2026-10-31", 0, 0, 1, null, inv),
    [
      [OCT, 32],
      [SEP, 31],
    ],
  ],
  [
    "VALUES of a cost index (no currency/unit) with a series line",
    (inv) => values("912-5-2", "", "", SEP, null, 2, null as never, null as never, null, inv),
    [
      ["912-5-2 Assessment 912-5-2", "", ""],
      ["Date", "Value", "Status"],
      [SEP, 1.5, "final"],
      [OCT, 1.75, "final"],
    ],
  ],
  ["VALUE latest final", (inv) => value("68520-8-1", null, null, null, inv), 32],
  ["VALUE of a forecast month by serial", (inv) => value("68520-8-1", NOV + 5, null, null, inv), 40],
  ["INFO one field", (inv) => info("68520-8-1", "Has Forecast", inv), [[true]]],
  ["INFO a date field", (inv) => info("68520-8-1", "updated at", inv), [[46330]]],
  ["INFO a marker kept as received", (inv) => info("68520-8-1", "AREA", inv), [["-"]]],
  ["LIMITS one dataset with product", (inv) => limits("germany", "Industry Economics", inv), [[45]]],
  ["LIMITS unique dataset", (inv) => limits("Polymers", null, inv), [[300]]],
  [
    "SEARCH",
    (inv) => search("natural gas", "energy", null as never, inv),
    [
      ["Code", "Assessment", "Coverage", "Default currency", "Default unit"],
      ["68520-8-1", "Natural gas, Germany", "Germany", "EUR", "MWh"],
    ],
  ],
])("%s", async (_label, call, expected) => {
  const inv = invocation();
  call(inv);
  await settle();
  expect(latest(inv)).toEqual(expected);
});

test.each<[string, Call, string, RegExp]>([
  [
    "a numeric code",
    (inv) => value(68511, null, null, null, inv),
    "#VALUE!",
    /^The code arrived as the number 68511/,
  ],
  [
    "a currency the series does not offer lists the offered ones",
    (inv) => values("68520-8-1", "GBP", null, null, null, 1, 1, 0, null, inv),
    "#VALUE!",
    /^Currency 'GBP' is not offered for 68520-8-1\. Available: EUR, USD$/,
  ],
  [
    "currency on a non-utility industry series",
    (inv) => value("912-5-2", null, "EUR", null, inv),
    "#VALUE!",
    /^Currency does not apply to cost indexes \(912-5-2\): leave it empty$/,
  ],
  [
    "a start after the end",
    (inv) => values("68520-8-1", null, null, "2026-10", "2026-01", 1, 1, 0, null, inv),
    "#VALUE!",
    /^The start_date 2026-10 is after the end_date 2026-01/,
  ],
  [
    "a malformed date",
    (inv) => value("68520-8-1", "June", null, null, inv),
    "#VALUE!",
    /^The date "June" is not a date/,
  ],
  [
    "an unknown code",
    (inv) => value("1-2-3", null, null, null, inv),
    "#N/A",
    /^Unknown code '1-2-3': it is not in your subscription's catalog \(checked 2026-11-20 12:00 UTC\)$/,
  ],
  [
    "no values in the range",
    (inv) => values("68520-8-1", null, null, "2030-01", null, 1, 1, 0, null, inv),
    "#N/A",
    /^No values for 68520-8-1 between 2030-01 and the last month \(data runs 2026-08 to 2026-12\)\.$/,
  ],
  [
    "an unknown INFO field",
    (inv) => info("68520-8-1", "price", inv),
    "#VALUE!",
    /^The field "price" is not a Series Info field/,
  ],
  [
    "an ambiguous dataset",
    (inv) => limits("Germany", null, inv),
    "#VALUE!",
    /exists in Energy Price and Industry Economics/,
  ],
  ["SEARCH without a match", (inv) => search("zzz", null, 5, inv), "#N/A", /^No series matches "zzz"\.$/],
  ["SEARCH with empty text", (inv) => search("", null, 5, inv), "#VALUE!", /^The search text is empty/],
  [
    "SEARCH with too many rows",
    (inv) => search("gas", null, 501, inv),
    "#VALUE!",
    /^The max_rows argument must be a whole number from 1 to 500/,
  ],
])("%s is %s", async (_label, call, type, message) => {
  const inv = invocation();
  call(inv);
  await settle();
  expect(latest(inv)).toEqual({ type, message: expect.stringMatching(message) });
});

test.each([
  [
    new PcdError("quota", "Quota limit reached", { dataset: "Germany" }),
    /^Monthly allowance used up for dataset 'Germany' \(0 of 500 left\); it resets at the next monthly release, 2026-12-03\.$/,
  ],
  [
    new PcdError("unavailable", "The PCD service is down for maintenance until 22:00 US Central Time."),
    /until 22:00/,
  ],
  [new PcdError("network", "PCD could not be reached: connection refused."), /could not be reached/],
])("engine failures without cached data are #N/A with the cause: %s", async (failure, message) => {
  h.service.failWith((call) => (call.operation === "series_values" ? failure : undefined));
  const inv = invocation();
  value("68520-8-1", null, null, null, inv);
  await settle();
  expect(latest(inv)).toEqual({ type: "#N/A", message: expect.stringMatching(message) });
});

test("data served from cache after a failed refresh shows the data, not an error", async () => {
  const inv = invocation();
  value("68520-8-1", "2026-09", null, null, inv);
  await settle();
  h.revise("68520-8-1", "2026-09", 99);
  h.service.failWith((call) =>
    call.operation === "series_values" ? new PcdError("network", "offline") : undefined,
  );
  await h.refresh();
  await settle();
  expect(inv.results).toEqual([31]);
});

test("not signed in, then signed in: the cell fills by itself", async () => {
  h.auth.signOut();
  const inv = invocation();
  value("68520-8-1", null, null, null, inv);
  await settle();
  expect(latest(inv)).toEqual({ type: "#N/A", message: expect.stringMatching(/^Not signed in/) });
  await h.engine.signIn("analyst@example.com", "password");
  await settle();
  expect(latest(inv)).toBe(32);
});

test("only cells whose key changed are recomputed", async () => {
  const gas = invocation();
  const index = invocation();
  value("68520-8-1", null, null, null, gas);
  value("912-5-2", null, null, null, index);
  await settle();
  // A revision of the gas series only: the refresh fetches both, one changed.
  h.revise("68520-8-1", "2026-10", 33);
  await h.refresh();
  await settle();
  expect(gas.results).toEqual([32, 33]);
  expect(index.results).toEqual([1.75]);
});

test("spelling out the default currency shares the default request key", async () => {
  const spelled = invocation();
  const omitted = invocation();
  value("68520-8-1", null, "eur", "MWH", spelled);
  value("68520-8-1", null, null, null, omitted);
  await settle();
  expect([latest(spelled), latest(omitted)]).toEqual([32, 32]);
  // One request of one code: both cells share the cached series.
  expect(h.service.codesSent()).toBe(1);
});

test("LIMITS without arguments is the whole table and follows limit changes", async () => {
  const inv = invocation();
  limits(null, null, inv);
  await settle();
  expect(latest(inv)).toEqual([
    ["Product", "Dataset", "Remaining", "Total"],
    ["Energy Price", "Germany", 480, 500],
    ["Commodity Price", "Polymers", 300, 300],
    ["Industry Economics", "Germany", 45, 50],
  ]);
  // The allowance moved on the service; the engine reads it again once its reading is old.
  h.service.limits.set("energy_price", { Germany: { remaining: 479, total: 500 } });
  h.clock.now += LIMITS_MAX_AGE_MS + 1;
  await h.refresh();
  await settle();
  expect((latest(inv) as unknown[][])[1]).toEqual(["Energy Price", "Germany", 479, 500]);
});

test("INFO without a field is the two-column table", async () => {
  const inv = invocation();
  info("68520-8-1", null, inv);
  await settle();
  const table = latest(inv) as unknown[][];
  expect(table[0]).toEqual(["area", "-"]);
  expect(table.find((row) => row[0] === "code")).toEqual(["code", "68520-8-1"]);
  expect(table.every((row) => row.length === 2)).toBe(true);
});

test.each<[string, Call, unknown]>([
  ["a product filter", (inv) => search("Germany", "industry", null as never, inv), [["912-5-2"]]],
  ["max_rows", (inv) => search("Germany", null, 1, inv), 1],
])("SEARCH applies %s", async (_label, call, expected) => {
  const inv = invocation();
  call(inv);
  await settle();
  const rows = (latest(inv) as unknown[][]).slice(1);
  if (typeof expected === "number") expect(rows).toHaveLength(expected);
  else expect(rows.map((row) => row.slice(0, 1))).toEqual(expected);
});

test("a cancelled cell unsubscribes from the engine", async () => {
  const inv = invocation();
  value("68520-8-1", null, null, null, inv);
  await settle();
  inv.onCanceled?.();
  h.revise("68520-8-1", "2026-10", 33);
  await h.refresh();
  await settle();
  expect(inv.results).toEqual([32]);
});

test("without an engine the cell is #N/A naming the cause, never stuck", async () => {
  setEngine(undefined);
  const inv = invocation();
  value("68520-8-1", null, null, null, inv);
  await settle();
  expect(latest(inv)).toEqual({
    type: "#N/A",
    message: "PCD internal error: PCD engine is not initialised: no engine factory was registered.",
  });
});

/** The service fails the product's Data Limits calls with the error. */
function limitsOf(product: ProductId, error: PcdError): (call: RecordedCall) => PcdError | undefined {
  return (call) => (call.operation === "data_limits" && call.product === product ? error : undefined);
}

/** The cause, then the cell's own retry time. */
function retryNoteAfter(cause: string): RegExp {
  return new RegExp(
    `^${cause.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} Will try again at \\d\\d:\\d\\d UTC\\.$`,
  );
}

test("a dataset of a product whose limits could not be read shows that cause, not 'not subscribed'", async () => {
  const down = new PcdError(
    "unavailable",
    "The service is down for maintenance until 22:00 US Central Time.",
  );
  h.service.failWith(limitsOf("commodity_price", down));
  const inv = invocation();
  limits("Polymers", null, inv);
  await settle();
  // The cell also says when it tries again by itself.
  expect(latest(inv)).toEqual({ type: "#N/A", message: expect.stringMatching(retryNoteAfter(down.message)) });
});

test.each<[string, Call, unknown]>([
  [
    "the whole table names the unread product and why",
    (inv) => limits(null, null, inv),
    [
      ["Product", "Dataset", "Remaining", "Total"],
      ["Energy Price", "Germany", 480, 500],
      [
        "Commodity Price",
        "Data Limits could not be read: The service is down for maintenance until 22:00 US Central Time.",
        "",
        "",
      ],
      ["Industry Economics", "Germany", 45, 50],
    ],
  ],
  [
    "the table of the unread product is its cause, not an empty table",
    (inv) => limits(null, "commodity", inv),
    {
      type: "#N/A",
      message: expect.stringMatching(
        retryNoteAfter("The service is down for maintenance until 22:00 US Central Time."),
      ),
    },
  ],
])("commodity limits unread: %s", async (_label, call, expected) => {
  h.service.failWith(
    limitsOf(
      "commodity_price",
      new PcdError("unavailable", "The service is down for maintenance until 22:00 US Central Time."),
    ),
  );
  const inv = invocation();
  call(inv);
  await settle();
  expect(latest(inv)).toEqual(expected);
});

test("a dataset missing while every product answered is not subscribed", async () => {
  const inv = invocation();
  limits("Spain", null, inv);
  await settle();
  expect(latest(inv)).toEqual({
    type: "#VALUE!",
    message: expect.stringMatching(/^The dataset "Spain" is not subscribed/),
  });
});

test("in the sandbox LIMITS says there are no limits there", async () => {
  h.settings.value.environment = "sandbox";
  const inv = invocation();
  limits(null, null, inv);
  await settle();
  expect(latest(inv)).toEqual({
    type: "#N/A",
    message: expect.stringMatching(/^The sandbox has no monthly data request limits/),
  });
});
