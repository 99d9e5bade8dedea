import { QuotaBook } from "../../src/emulator/quotas";
import { ServiceError } from "../../src/emulator/service-error";

const book = (): QuotaBook => new QuotaBook({ allowance: 10, dailyQuota: 2, seriesInfoMonthlyQuota: 1 });

test("data requests are charged per dataset and reported", () => {
  const quotas = book();
  quotas.chargeDataRequests(
    "energy_price",
    new Map([
      ["Germany", 3],
      ["France", 1],
    ]),
  );
  expect(quotas.report("energy_price", ["Germany", "France", "Spain"])).toEqual({
    Germany: { remaining_requests: 7, total_requests: 10 },
    France: { remaining_requests: 9, total_requests: 10 },
    Spain: { remaining_requests: 10, total_requests: 10 },
  });
  expect(quotas.report("industry_economics", ["Germany"]).Germany?.remaining_requests).toBe(10);
});

test("a call over any dataset's allowance charges nothing", () => {
  const quotas = book();
  quotas.setRemaining("energy_price", "Germany", 1);
  expect(() =>
    quotas.chargeDataRequests(
      "energy_price",
      new Map([
        ["France", 2],
        ["Germany", 2],
      ]),
    ),
  ).toThrow(
    "Quota limit reached for dataset 'Germany': 9 of 10 monthly data requests used; this call needs 2",
  );
  expect(quotas.report("energy_price", ["France"]).France?.remaining_requests).toBe(10);
});

test.each([
  ["daily quota", (q: QuotaBook) => q.chargeLiveCall("2026-11-10", false), 2, /daily quota of 2/],
  [
    "Series Info monthly quota",
    (q: QuotaBook) => q.chargeLiveCall("2026-11-10", true),
    1,
    /Series Info quota of 1/,
  ],
  [
    "sandbox Series Values",
    (q: QuotaBook) => q.chargeSandboxCall("2026-11-10", "series_values"),
    16000,
    /16000/,
  ],
  ["sandbox Series Info", (q: QuotaBook) => q.chargeSandboxCall("2026-11-10", "series_info"), 8000, /8000/],
  ["sandbox History", (q: QuotaBook) => q.chargeSandboxCall("2026-11-10", "series_hist"), 16000, /16000/],
])("%s: the call after the limit is a 403 quota error", (_case, charge, limit, pattern) => {
  const quotas = book();
  for (let i = 0; i < limit; i += 1) charge(quotas);
  let caught: unknown;
  try {
    charge(quotas);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ServiceError);
  expect((caught as ServiceError).status).toBe(403);
  expect((caught as ServiceError).message).toMatch(/Quota limit reached/);
  expect((caught as ServiceError).message).toMatch(pattern);
});

test("daily counts roll over with the day; monthly ones at resetMonthly", () => {
  const quotas = book();
  quotas.chargeLiveCall("2026-11-10", true);
  quotas.chargeLiveCall("2026-11-10", false);
  expect(() => quotas.chargeLiveCall("2026-11-10", false)).toThrow(/daily/);
  expect(() => quotas.chargeLiveCall("2026-11-11", true)).toThrow(/Series Info/);
  quotas.resetMonthly();
  expect(() => quotas.chargeLiveCall("2026-11-11", true)).not.toThrow();
});
