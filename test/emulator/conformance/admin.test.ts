// Conformance: the admin controls (releases, revisions, faults, reset) and that they
// exist only with --admin. On the default (real) shape History ends the month before the
// 13-month Series Values window, so a revision shows in both.
import {
  addMonths,
  Harness,
  NOT_APPLICABLE,
  VALUES_WINDOW_MONTHS,
  type InfoRecord,
  type ValuesRecord,
} from "./harness";

let service: Harness;

beforeEach(async () => {
  service = await Harness.start();
});

afterEach(async () => {
  await service.close();
});

async function info(product = "commodity_price"): Promise<InfoRecord[]> {
  return (await service.get<InfoRecord[]>(`/${product}/v1/export/series`)).body;
}

async function values(codes: string[], history = false): Promise<ValuesRecord[]> {
  const path = `/commodity_price/v1/export/${history ? "series_hist" : "series"}/${codes.join(",")}`;
  return (await service.get<ValuesRecord[]>(path)).body;
}

const activeLag0 = (record: InfoRecord): boolean =>
  record.remark_2 === NOT_APPLICABLE &&
  record.remark_1 === "lag: 0" &&
  record.series_hist_changed === "False";

describe("POST /__admin/release", () => {
  test("publishes a new final month; revised series change history; unchanged ones stay", async () => {
    const before = (await info()).filter(activeLag0);
    const [revised, unchanged, plain] = before;
    if (revised === undefined || unchanged === undefined || plain === undefined) throw new Error("test data");
    const [oldRevised] = await values([revised.code], true);
    const answer = await service.post<{
      latestConcludedMonth: string;
      revised: string[];
      unchanged: string[];
    }>("/__admin/release", { revise: [revised.code], unchanged: [unchanged.code] });
    expect(answer.status).toBe(200);
    expect(answer.body.latestConcludedMonth).toBe(addMonths(plain.last_available_final, 1));
    expect(answer.body.revised).toEqual([revised.code]);

    const after = new Map((await info()).map((record) => [record.code, record]));
    const plainAfter = after.get(plain.code);
    expect(plainAfter?.last_available_final).toBe(addMonths(plain.last_available_final, 1));
    expect(plainAfter?.updated_at).toBe("2026-11-10");
    expect(plainAfter?.series_hist_changed).toBe("False");
    expect(after.get(unchanged.code)?.last_available_final).toBe(unchanged.last_available_final);
    expect(after.get(unchanged.code)?.updated_at).toBe(unchanged.updated_at);
    expect(after.get(revised.code)?.series_hist_changed).toBe("True");

    const [newRevised] = await values([revised.code], true);
    const oldByDate = new Map(oldRevised?.series_final_values.map((point) => [point.date, point.value]));
    const changed = newRevised?.series_final_values.filter(
      (point) => oldByDate.has(point.date) && oldByDate.get(point.date) !== point.value,
    );
    expect(changed?.length).toBeGreaterThan(100);
    // The new month moves the History window on by one month too.
    expect(newRevised?.series_final_values[0]?.date).toBe(
      addMonths(revised.last_available_final, 1 - VALUES_WINDOW_MONTHS),
    );
  });

  test("by default about 3% of series revise and about 5% are not updated", async () => {
    const answer = await service.post<{ revised: string[]; unchanged: string[] }>("/__admin/release", {});
    const total =
      (await info()).length + (await info("energy_price")).length + (await info("industry_economics")).length;
    expect(answer.body.revised.length / total).toBeGreaterThan(0.015);
    expect(answer.body.revised.length / total).toBeLessThan(0.05);
    expect(answer.body.unchanged.length / total).toBeGreaterThan(0.03);
    expect(answer.body.unchanged.length / total).toBeLessThan(0.08);
  });

  test("releases in a row move each series' last final by one month at most", async () => {
    const products = ["commodity_price", "energy_price", "industry_economics"];
    const lastFinals = async (): Promise<Map<string, string>> => {
      const records = (await Promise.all(products.map((product) => info(product)))).flat();
      return new Map(records.map((record) => [record.code, record.last_available_final]));
    };
    let before = await lastFinals();
    const heldBack = new Set<string>();
    for (let release = 0; release < 3; release += 1) {
      const answer = await service.post<{ unchanged: string[] }>("/__admin/release", {});
      for (const code of answer.body.unchanged) heldBack.add(code);
      const after = await lastFinals();
      const jumps = [...after].filter(([code, month]) => {
        const previous = before.get(code) ?? month;
        return month !== previous && month !== addMonths(previous, 1);
      });
      expect(jumps).toEqual([]);
      before = after;
    }
    expect(heldBack.size).toBeGreaterThan(100); // the releases did hold series back
  });

  test("a series held back gets its month in a late update the day after the release", async () => {
    const [series] = (await info()).filter(activeLag0);
    if (series === undefined) throw new Error("test data");
    await service.post("/__admin/release", { revise: [], unchanged: [series.code] });
    const held = (await info()).find((record) => record.code === series.code);
    expect(held?.last_available_final).toBe(series.last_available_final);
    await service.post("/__admin/clock", { now: "2026-11-11T18:00:00Z" });
    service.forgetToken(); // a day later the token has expired
    const late = (await info()).find((record) => record.code === series.code);
    expect(late).toMatchObject({
      last_available_final: addMonths(series.last_available_final, 1),
      updated_at: "2026-11-11",
    });
  });

  test("series_hist_changed is true for the latest release only", async () => {
    const [code] = (await info()).filter(activeLag0).map((record) => record.code);
    await service.post("/__admin/release", { revise: [code], unchanged: [] });
    expect((await info()).find((r) => r.code === code)?.series_hist_changed).toBe("True");
    await service.post("/__admin/release", { revise: [], unchanged: [] });
    expect((await info()).find((r) => r.code === code)?.series_hist_changed).toBe("False");
  });

  test("unknown codes in the body are a 400", async () => {
    const answer = await service.post<{ message: string }>("/__admin/release", { revise: ["1-1-1"] });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/Unknown codes: 1-1-1/);
  });
});

test("POST /__admin/revise changes history now, without a new month", async () => {
  const [series] = (await info()).filter(activeLag0);
  if (series === undefined) throw new Error("test data");
  const [recentBefore] = await values([series.code]);
  const [historyBefore] = await values([series.code], true);
  expect((await service.post("/__admin/revise", { codes: [series.code] })).status).toBe(200);
  const record = (await info()).find((r) => r.code === series.code);
  expect(record?.series_hist_changed).toBe("True");
  expect(record?.last_available_final).toBe(series.last_available_final);
  expect(record?.updated_at).toBe("2026-11-10");
  // Every month before the last final changes: in the Series Values window and in History.
  const [recentAfter] = await values([series.code]);
  const [historyAfter] = await values([series.code], true);
  expect(recentAfter?.series_final_values[0]).toEqual(recentBefore?.series_final_values[0]);
  expect(recentAfter?.series_final_values[5]?.value).not.toBe(recentBefore?.series_final_values[5]?.value);
  expect(historyAfter?.series_final_values.map((point) => point.date)).toEqual(
    historyBefore?.series_final_values.map((point) => point.date),
  );
  expect(historyAfter?.series_final_values[0]?.value).not.toBe(historyBefore?.series_final_values[0]?.value);
  expect(historyAfter?.series_final_values[5]?.value).not.toBe(historyBefore?.series_final_values[5]?.value);
});

describe("faults", () => {
  const code = async (): Promise<string> => (await info())[0]?.code ?? "";

  test.each([
    [503, "1"],
    [500, null],
    [429, "1"],
  ])("status %i is answered (Retry-After %s), count limits it", async (status, retryAfter) => {
    const codes = [await code()];
    await service.post("/__admin/faults", { operation: "series_values", mode: "status", status, count: 2 });
    for (let i = 0; i < 2; i += 1) {
      const answer = await service.get<{ message: string }>(`/commodity_price/v1/export/series/${codes[0]}`);
      expect(answer.status).toBe(status);
      expect(answer.headers.get("retry-after")).toBe(retryAfter);
      expect(answer.body.message).toMatch(/Injected fault/);
    }
    expect((await service.get(`/commodity_price/v1/export/series/${codes[0]}`)).status).toBe(200);
  });

  test("a faulted call charges nothing", async () => {
    const first = (await info())[0];
    await service.post("/__admin/faults", { operation: "*", mode: "status", status: 503, count: 1 });
    await service.get(`/commodity_price/v1/export/series/${first?.code}`);
    const limits = await service.get<Record<string, { remaining_requests: number }>>(
      "/commodity_price/v1/data_limits",
    );
    expect(limits.body[first?.coverage ?? ""]?.remaining_requests).toBe(500);
  });

  test("drop closes the connection without an answer", async () => {
    await service.newToken();
    await service.post("/__admin/faults", { operation: "data_limits", mode: "drop", count: 1 });
    await expect(service.get("/energy_price/v1/data_limits")).rejects.toThrow();
    expect((await service.get("/energy_price/v1/data_limits")).status).toBe(200);
  });

  test("malformed answers 200 with a body that is not valid JSON", async () => {
    await service.post("/__admin/faults", { operation: "series_info", mode: "malformed", count: 1 });
    const answer = await service.get("/energy_price/v1/export/series");
    expect(answer.status).toBe(200);
    expect(() => JSON.parse(answer.text)).toThrow();
  });

  test("latency delays the answer; access_token faults hit the token operation", async () => {
    const waits: number[] = [];
    const timed = await Harness.start({}, { wait: async (ms) => void waits.push(ms) });
    try {
      await timed.get("/energy_price/v1/data_limits");
      await timed.post("/__admin/faults", {
        operation: "access_token",
        mode: "latency",
        latencyMs: 150,
        count: 1,
      });
      // A call of another operation (with the token held) does not meet the token's fault.
      await timed.get("/energy_price/v1/data_limits");
      expect(waits).toEqual([]);
      await timed.newToken();
      expect(waits).toEqual([150]);
      await timed.newToken();
      expect(waits).toEqual([150]);
    } finally {
      await timed.close();
    }
  });

  test("rate 0 never fires; DELETE clears all faults", async () => {
    await service.post("/__admin/faults", { operation: "*", mode: "status", status: 500, rate: 0 });
    expect((await service.get("/energy_price/v1/data_limits")).status).toBe(200);
    await service.post("/__admin/faults", { operation: "*", mode: "status", status: 500 });
    expect((await service.get("/energy_price/v1/data_limits")).status).toBe(500);
    const cleared = await service.request<{ faults: unknown[] }>("DELETE", "/__admin/faults");
    expect(cleared.body.faults).toEqual([]);
    expect((await service.get("/energy_price/v1/data_limits")).status).toBe(200);
  });

  test("a fraction of calls fails with rate 0.5", async () => {
    await service.newToken();
    await service.post("/__admin/faults", {
      operation: "data_limits",
      mode: "status",
      status: 503,
      rate: 0.5,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i += 1) statuses.push((await service.get("/energy_price/v1/data_limits")).status);
    const failed = statuses.filter((status) => status === 503).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(35);
  });

  test.each([
    ["an unknown operation", { operation: "series", mode: "drop" }, /operation must be one of/],
    ["an unknown mode", { operation: "*", mode: "explode" }, /mode must be/],
    ["a rate above 1", { operation: "*", mode: "drop", rate: 2 }, /rate/],
  ])("%s is a 400", async (_case, body, pattern) => {
    const answer = await service.post<{ message: string }>("/__admin/faults", body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(pattern);
  });
});

test("POST /__admin/reset puts counters and quotas back", async () => {
  const first = (await info())[0];
  await service.get(`/commodity_price/v1/export/series/${first?.code}`);
  await service.post("/__admin/reset", {});
  const stats = await service.request<{ calls: Record<string, number>; dataRequests: object }>(
    "GET",
    "/__admin/stats",
  );
  expect(Object.values(stats.body.calls).every((count) => count === 0)).toBe(true);
  expect(stats.body.dataRequests).toEqual({});
  const limits = await service.get<Record<string, { remaining_requests: number }>>(
    "/commodity_price/v1/data_limits",
  );
  expect(limits.body[first?.coverage ?? ""]?.remaining_requests).toBe(500);
});

test.each([
  ["clock", "POST", { now: "yesterday" }, /now must be an ISO date-time/],
  ["quota", "POST", { dataset: "Atlantis", remaining: 1 }, /Unknown dataset 'Atlantis'/],
  ["quota", "POST", { dataset: "Germany", remaining: 501 }, /exceeds the monthly allowance/],
  ["plan", "POST", { allowance: -1 }, /allowance/],
])("POST /__admin/%s with a bad body is a 400 naming it", async (path, _method, body, pattern) => {
  const answer = await service.post<{ message: string }>(`/__admin/${path}`, body);
  expect(answer.status).toBe(400);
  expect(answer.body.message).toMatch(pattern);
});

test("without --admin the admin endpoints do not exist", async () => {
  const plain = await Harness.start({ admin: false });
  try {
    const answer = await plain.request<{ message: string }>("GET", "/__admin/stats");
    expect(answer.status).toBe(404);
    expect(answer.body.message).toMatch(/No such endpoint/);
  } finally {
    await plain.close();
  }
});
