// A function's arguments are normalised by the real engine: currency and unit names in any
// case and spacing, a code with spaces around it. normalisation-broken.test.ts breaks that
// normalisation and shows these cells notice.
import { normalisationBench } from "./support/normalised-cell";

const bench = normalisationBench();

test.each<[string, string, string | null, string | null]>([
  ["lower-case currency", "68520-8-1", "usd", null],
  ["mixed-case currency with spaces", "68520-8-1", " Usd ", null],
  ["upper-case unit", "68520-8-1", "USD", "KWH"],
  ["lower-case unit", "68520-8-1", "USD", "kwh"],
  ["a code with spaces around it", " 68520-8-1 ", "USD", "kWh"],
])("%s reads as the canonical spelling, on one request", async (_case, code, currency, unit) => {
  const canonical = await bench.cell("68520-8-1", "USD", unit === null ? null : "kWh");
  expect(typeof canonical).toBe("number");
  expect(await bench.cell(code, currency, unit)).toBe(canonical);
  // Both cells share one cached series: one code was sent for them.
  expect(bench.engine().service.codesSent()).toBe(1);
});

test("spelling out the defaults in any case shares the default request", async () => {
  expect(await bench.cell("68520-8-1", "eur", "mwh")).toBe(32);
  expect(await bench.cell("68520-8-1", null, null)).toBe(32);
  expect(bench.engine().service.codesSent()).toBe(1);
});
