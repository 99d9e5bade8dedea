// Conformance: Data Limits (docs/service.md §2.3, §4.5), quotas and plan (docs/service.md §8, docs/decisions.md D25),
// the rate limit, and the admin counters.
import { Harness, type InfoRecord, type ValuesRecord } from "./harness";

type Limits = Record<string, { remaining_requests: number; total_requests: number }>;

let service: Harness;
let energy: InfoRecord[];
let commodity: InfoRecord[];

beforeAll(async () => {
  service = await Harness.start({ allowance: 500 });
  energy = (await service.get<InfoRecord[]>("/energy_price/v1/export/series")).body;
  commodity = (await service.get<InfoRecord[]>("/commodity_price/v1/export/series")).body;
});

beforeEach(async () => {
  await service.post("/__admin/reset", {});
  await service.post("/__admin/plan", { history: true, allowance: 500 });
});

afterAll(async () => {
  await service.close();
});

function codesOf(records: InfoRecord[], dataset: string, count: number): string[] {
  const codes = records.filter((record) => record.coverage === dataset).map((record) => record.code);
  if (codes.length < count) throw new Error(`Test data: ${dataset} has only ${codes.length} series`);
  return codes.slice(0, count);
}

async function limits(product: string): Promise<Limits> {
  const answer = await service.get<Limits>(`/${product}/v1/data_limits`);
  expect(answer.status).toBe(200);
  return answer.body;
}

test("Data Limits lists every dataset of the product with remaining and total requests", async () => {
  const report = await limits("commodity_price");
  expect(Object.keys(report).sort()).toEqual([...new Set(commodity.map((r) => r.coverage))].sort());
  expect(report.Polymers).toEqual({ remaining_requests: 500, total_requests: 500 });
  expect(Object.keys(await limits("energy_price"))).toHaveLength(33);
});

test("docs/service.md §8.2 rule 1: 10 + 5 + 15 requests split 10/20 over two datasets leave 490 and 480", async () => {
  const germany = codesOf(energy, "Germany", 20);
  const france = codesOf(energy, "France", 10);
  const calls = [
    ["series", [...france]],
    ["series_hist", germany.slice(0, 5)],
    ["series", germany.slice(5, 20)],
  ] as const;
  for (const [operation, codes] of calls) {
    const answer = await service.get<ValuesRecord[]>(
      `/energy_price/v1/export/${operation}/${codes.join(",")}`,
    );
    expect(answer.status).toBe(200);
  }
  const report = await limits("energy_price");
  expect([report.France?.remaining_requests, report.Germany?.remaining_requests]).toEqual([490, 480]);
  const stats = await service.request<{ dataRequests: Record<string, number> }>("GET", "/__admin/stats");
  expect(stats.body.dataRequests).toEqual({ France: 10, Germany: 20 });
});

test("an exhausted dataset rejects the whole call with a quota message naming it, charging nothing", async () => {
  const [spain] = codesOf(energy, "Spain", 1);
  const [sweden] = codesOf(energy, "Sweden", 1);
  await service.post("/__admin/quota", { dataset: "Spain", remaining: 0, product: "energy_price" });
  const answer = await service.get<{ message: string }>(`/energy_price/v1/export/series/${sweden},${spain}`);
  expect(answer.status).toBe(403);
  expect(answer.body.message).toBe(
    "Quota limit reached for dataset 'Spain': 500 of 500 monthly data requests used",
  );
  const report = await limits("energy_price");
  expect([report.Spain?.remaining_requests, report.Sweden?.remaining_requests]).toEqual([0, 500]);
});

test("a call needing more than what remains is rejected whole", async () => {
  const codes = codesOf(energy, "Poland", 4);
  await service.post("/__admin/quota", { dataset: "Poland", remaining: 3 });
  const answer = await service.get<{ message: string }>(`/energy_price/v1/export/series/${codes.join(",")}`);
  expect(answer.status).toBe(403);
  expect(answer.body.message).toMatch(/Quota limit reached for dataset 'Poland': 497 of 500 .*needs 4/);
  expect((await limits("energy_price")).Poland?.remaining_requests).toBe(3);
});

test("--allowance sets the totals", async () => {
  const small = await Harness.start({ allowance: 2 });
  try {
    const codes = codesOf(energy, "India", 3);
    expect((await small.get(`/energy_price/v1/export/series/${codes.slice(0, 2).join(",")}`)).status).toBe(
      200,
    );
    expect((await small.get(`/energy_price/v1/export/series/${codes[2]}`)).status).toBe(403);
    expect((await small.get<Limits>("/energy_price/v1/data_limits")).body.India).toEqual({
      remaining_requests: 0,
      total_requests: 2,
    });
  } finally {
    await small.close();
  }
});

test.each([
  ["an admin release", async () => void (await service.post("/__admin/release", {}))],
  [
    "the clock passing the next release (December 2026: the 3rd, 12:00 CST)",
    async () => void (await service.post("/__admin/clock", { now: "2026-12-03T18:30:00Z" })),
  ],
])("monthly quotas reset at %s", async (_case, release) => {
  const codes = codesOf(commodity, "Polymers", 5);
  await service.get(`/commodity_price/v1/export/series/${codes.join(",")}`);
  expect((await limits("commodity_price")).Polymers?.remaining_requests).toBe(495);
  await release();
  service.forgetToken();
  expect((await limits("commodity_price")).Polymers?.remaining_requests).toBe(500);
  await service.post("/__admin/clock", { now: "2026-11-10T18:00:00Z" });
  service.forgetToken();
});

test("History off: Series Values History is a plan error (403), Series Values still works", async () => {
  await service.post("/__admin/plan", { history: false });
  const [code] = codesOf(energy, "Norway", 1);
  const history = await service.get<{ message: string }>(`/energy_price/v1/export/series_hist/${code}`);
  expect(history.status).toBe(403);
  expect(history.body.message).toMatch(/not included in the Data Automation Option/);
  expect((await service.get(`/energy_price/v1/export/series/${code}`)).status).toBe(200);
  expect((await limits("energy_price")).Norway?.remaining_requests).toBe(499);
});

test("--history off starts with History disabled", async () => {
  const plan = await Harness.start({ history: false });
  try {
    expect((await plan.get(`/energy_price/v1/export/series_hist/${energy[0]?.code}`)).status).toBe(403);
  } finally {
    await plan.close();
  }
});

describe("daily and monthly call quotas", () => {
  test("the daily quota counts every live operation and resets the next US Central day", async () => {
    const small = await Harness.start({ dailyQuota: 3 });
    try {
      await small.newToken();
      const paths = [
        "/energy_price/v1/export/series",
        `/energy_price/v1/export/series/${energy[0]?.code}`,
        "/energy_price/v1/data_limits",
      ];
      for (const path of paths) expect((await small.get(path)).status).toBe(200);
      const over = await small.get<{ message: string }>(
        `/energy_price/v1/export/series_hist/${energy[0]?.code}`,
      );
      expect(over.status).toBe(403);
      expect(over.body.message).toMatch(/Quota limit reached: daily quota of 3 requests/);
      // 2026-11-11 00:30 CST is 06:30 UTC: a new Central day.
      await small.post("/__admin/clock", { now: "2026-11-11T06:30:00Z" });
      small.forgetToken(); // the old token expired with the clock jump
      expect((await small.get("/energy_price/v1/data_limits")).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  test("sandbox calls do not count against the live daily quota", async () => {
    const small = await Harness.start({ dailyQuota: 1 });
    try {
      for (let i = 0; i < 3; i += 1) {
        expect((await small.get(`/energy_price/v1/sandbox/export/series/${energy[0]?.code}`)).status).toBe(
          200,
        );
      }
      expect((await small.get("/energy_price/v1/data_limits")).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  test("the monthly Series Info quota resets at the release", async () => {
    const small = await Harness.start({ seriesInfoMonthlyQuota: 1 });
    try {
      expect((await small.get("/industry_economics/v1/export/series")).status).toBe(200);
      const over = await small.get<{ message: string }>("/energy_price/v1/export/series");
      expect(over.status).toBe(403);
      expect(over.body.message).toMatch(/Quota limit reached: monthly Series Info quota of 1/);
      await small.post("/__admin/release", {});
      expect((await small.get("/energy_price/v1/export/series")).status).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe("rate limit", () => {
  test("more than 10 requests per second to one operation get 429 with Retry-After; others pass", async () => {
    const limited = await Harness.start({ rateLimitPerSecond: 10 });
    try {
      await limited.newToken();
      await limited.get("/energy_price/v1/data_limits"); // caches the token
      const burst = await Promise.all(
        Array.from({ length: 15 }, () => limited.get<{ message: string }>("/energy_price/v1/data_limits")),
      );
      const rejected = burst.filter((answer) => answer.status === 429);
      expect(rejected.length).toBeGreaterThanOrEqual(5);
      expect(rejected[0]?.headers.get("retry-after")).toBe("1");
      expect(rejected[0]?.body.message).toMatch(
        /Rate limit exceeded: more than 10 data_limits requests per second/,
      );
      expect((await limited.get("/energy_price/v1/export/series")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

test("stats count every request per operation, failed ones included", async () => {
  await service.get(`/energy_price/v1/export/series/${energy[0]?.code}`);
  await service.get("/energy_price/v1/export/series/not-a-code");
  await service.request("GET", "/energy_price/v1/data_limits");
  await service.get(`/energy_price/v1/sandbox/export/series_hist/${energy[0]?.code}`);
  const stats = await service.request<{
    calls: Record<string, number>;
    dataRequests: Record<string, number>;
  }>("GET", "/__admin/stats");
  expect(stats.body.calls).toEqual({
    access_token: 0,
    series_info: 0,
    series_values: 2,
    series_hist: 1,
    data_limits: 1,
  });
  expect(stats.body.dataRequests).toEqual({ [energy[0]?.coverage ?? ""]: 1 });
});

test("only subscribed datasets are visible; other codes are left out and cost nothing", async () => {
  const narrow = await Harness.start({ subscribedDatasets: ["Germany", "Polymers"] });
  try {
    const records = (await narrow.get<InfoRecord[]>("/energy_price/v1/export/series")).body;
    expect(new Set(records.map((record) => record.coverage))).toEqual(new Set(["Germany"]));
    expect(Object.keys((await narrow.get<Limits>("/commodity_price/v1/data_limits")).body)).toEqual([
      "Polymers",
    ]);
    const [germany] = codesOf(energy, "Germany", 1);
    const [france] = codesOf(energy, "France", 1);
    const answer = await narrow.get<ValuesRecord[]>(`/energy_price/v1/export/series/${france},${germany}`);
    expect(answer.body.map((record) => record.code)).toEqual([germany]);
    const stats = await narrow.request<{ dataRequests: Record<string, number> }>("GET", "/__admin/stats");
    expect(stats.body.dataRequests).toEqual({ Germany: 1 });
  } finally {
    await narrow.close();
  }
});
