// The real functions.ts exports, called as Excel calls them (null for omitted arguments,
// a streaming invocation last), against the fake engine.
import { PcdError } from "../../src/core/errors";
import { info, limits, search, value, values } from "../../src/functions/functions";
import { installCustomFunctionsShim } from "../../src/headless/custom-functions-shim";
import { setEngine } from "../../src/host/shared-engine";
import { FakeEngine, makeInfo, monthlyPoints } from "../support/fake-engine";

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

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** The latest result as plain data: errors as {type, message}. */
function latest(inv: Invocation): unknown {
  const result = inv.results.at(-1);
  if (result instanceof CustomFunctions.Error) return { type: result.code, message: result.message };
  return result;
}

const GAS = {
  info: makeInfo({
    code: "68520-8-1",
    assessment: "Natural gas, Germany",
    raw: { code: "68520-8-1", has_forecast: "True", updated_at: "2025-07-04", area: "-" },
  }),
  finals: monthlyPoints("2025-04", 3, 30),
  forecasts: monthlyPoints("2025-07", 2, 40),
};
const INDEX = {
  info: makeInfo({
    code: "912-5-2",
    product: "industry_economics",
    dataType: "cost_index",
    coverage: "Germany",
    defaultCurrency: null,
    defaultUnit: null,
    availableCurrencies: [],
    availableUnits: [],
  }),
  finals: monthlyPoints("2025-05", 2, 1.5, 0.25),
  forecasts: [],
};

let engine: FakeEngine;

beforeAll(() => installCustomFunctionsShim());
beforeEach(() => {
  engine = new FakeEngine([GAS, INDEX]);
  engine.limitsRows = [
    { product: "energy_price", dataset: "Germany", remaining: 480, total: 500 },
    { product: "industry_economics", dataset: "Germany", remaining: 45, total: 50 },
    { product: "commodity_price", dataset: "Polymers", remaining: 300, total: 300 },
  ];
  setEngine(engine);
});
afterAll(() => setEngine(undefined));

type Call = (inv: Invocation & CustomFunctions.StreamingInvocation<never>) => void;
const APR = 45748;
const MAY = 45778;
const JUN = 45809;
const JUL = 45839;

test.each<[string, Call, unknown]>([
  [
    "VALUES with defaults",
    (inv) =>
      values("68520-8-1", null, null, null, null, null as never, null as never, null as never, null, inv),
    [
      ["Date", "Value (EUR/MWh)", "Status"],
      [APR, 30, "final"],
      [MAY, 31, "final"],
      [JUN, 32, "final"],
      [JUL, 40, "forecast"],
      [JUL + 31, 41, "forecast"],
    ],
  ],
  [
    "VALUES spelled-out default currency, text dates, finals only, newest first, no headers",
    (inv) => values("68520-8-1", "eur", "MWH", "2025-05", "2025-06-30", 0, 0, 1, null, inv),
    [
      [JUN, 32],
      [MAY, 31],
    ],
  ],
  [
    "VALUES of a cost index (no currency/unit) with a series line",
    (inv) => values("912-5-2", "", "", MAY, null, 2, null as never, null as never, null, inv),
    [
      ["912-5-2 Assessment 912-5-2", "", ""],
      ["Date", "Value", "Status"],
      [MAY, 1.5, "final"],
      [JUN, 1.75, "final"],
    ],
  ],
  ["VALUE latest final", (inv) => value("68520-8-1", null, null, null, inv), 32],
  ["VALUE of a forecast month by serial", (inv) => value("68520-8-1", JUL + 5, null, null, inv), 40],
  ["INFO one field", (inv) => info("68520-8-1", "Has Forecast", inv), [[true]]],
  ["INFO a date field", (inv) => info("68520-8-1", "updated at", inv), [[45842]]],
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
    /currency "GBP" is not offered by 68520-8-1; it offers EUR, USD\./,
  ],
  [
    "currency on a non-utility industry series",
    (inv) => value("912-5-2", null, "EUR", null, inv),
    "#VALUE!",
    /currency does not apply to 912-5-2/,
  ],
  [
    "a start after the end",
    (inv) => values("68520-8-1", null, null, "2025-06", "2025-01", 1, 1, 0, null, inv),
    "#VALUE!",
    /^The start_date 2025-06 is after the end_date 2025-01/,
  ],
  [
    "a malformed date",
    (inv) => value("68520-8-1", "June", null, null, inv),
    "#VALUE!",
    /^The date "June" is not a date/,
  ],
  ["an unknown code", (inv) => value("1-2-3", null, null, null, inv), "#N/A", /^Unknown code 1-2-3/],
  [
    "no values in the range",
    (inv) => values("68520-8-1", null, null, "2030-01", null, 1, 1, 0, null, inv),
    "#N/A",
    /^No values for 68520-8-1 between 2030-01 and the last month \(data runs 2025-04 to 2025-08\)\.$/,
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
  [new PcdError("quota", "Quota limit reached", { dataset: "Germany" }), /Quota reached for Germany/],
  [
    new PcdError("unavailable", "The PCD service is down for maintenance until 22:00 US Central Time."),
    /until 22:00/,
  ],
  [new PcdError("network", "PCD could not be reached: connection refused."), /could not be reached/],
])("engine failures without cached data are #N/A with the cause: %s", async (failure, message) => {
  engine.seriesFailures.set("68520-8-1", failure);
  const inv = invocation();
  value("68520-8-1", null, null, null, inv);
  await settle();
  expect(latest(inv)).toEqual({ type: "#N/A", message: expect.stringMatching(message) });
});

test("data served from cache after a failed fetch shows the data, not an error", async () => {
  engine.staleBecause = new PcdError("network", "offline");
  const inv = invocation();
  value("68520-8-1", "2025-05", null, null, inv);
  await settle();
  expect(latest(inv)).toBe(31);
});

test("not signed in, then signed in: the cell fills by itself", async () => {
  engine.setAuth({ signedIn: false, username: null });
  const inv = invocation();
  value("68520-8-1", null, null, null, inv);
  await settle();
  expect(latest(inv)).toEqual({ type: "#N/A", message: expect.stringMatching(/^Not signed in/) });
  engine.setAuth({ signedIn: true, username: "analyst@example.com" });
  await settle();
  expect(latest(inv)).toBe(32);
});

test("only cells whose key changed are recomputed", async () => {
  const gas = invocation();
  const index = invocation();
  value("68520-8-1", null, null, null, gas);
  value("912-5-2", null, null, null, index);
  await settle();
  const getSeriesBefore = engine.calls.getSeries;
  GAS.finals.push({ month: "2025-07", value: 33 });
  try {
    engine.emitChange(["live|energy_price|68520-8-1|default|default"]);
    await settle();
    expect(engine.calls.getSeries).toBe(getSeriesBefore + 1);
    expect(gas.results).toEqual([32, 33]);
    expect(index.results).toEqual([1.75]);
  } finally {
    GAS.finals.pop();
  }
});

test("spelling out the default currency shares the default request key", async () => {
  const keys: string[] = [];
  const resolve = engine.resolve.bind(engine);
  engine.resolve = async (...args) => {
    const request = await resolve(...args);
    keys.push(request.key);
    return request;
  };
  value("68520-8-1", null, "EUR", null, invocation());
  value("68520-8-1", null, null, null, invocation());
  await settle();
  expect(new Set(keys).size).toBe(1);
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
  engine.limitsRows = engine.limitsRows.map((row) => ({ ...row, remaining: row.remaining - 1 }));
  engine.emitMeta();
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

test("SEARCH passes product and max_rows to the engine", async () => {
  search("gas", "commodity", 7, invocation());
  await settle();
  expect(engine.searches).toEqual([{ text: "gas", options: { product: "commodity_price", limit: 7 } }]);
});

test("a cancelled cell unsubscribes from the engine", async () => {
  const inv = invocation();
  value("68520-8-1", null, null, null, inv);
  await settle();
  expect(engine.listenerCount).toBeGreaterThan(0);
  inv.onCanceled?.();
  expect(engine.listenerCount).toBe(0);
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
  engine.productLimitsFailures.set("commodity_price", down);
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
  engine.productLimitsFailures.set(
    "commodity_price",
    new PcdError("unavailable", "The service is down for maintenance until 22:00 US Central Time."),
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
  engine.environment = "sandbox";
  const inv = invocation();
  limits(null, null, inv);
  await settle();
  expect(latest(inv)).toEqual({
    type: "#N/A",
    message: expect.stringMatching(/^The sandbox has no monthly data request limits/),
  });
});
