// Conformance: maintenance and release-day downtime (docs/service.md §3, §8.3), US Central Time with
// daylight saving time, and the release schedule as seen from Series Info.
import { Harness, NOT_APPLICABLE, QUIET_NOW, type InfoRecord } from "./harness";

let service: Harness;

beforeAll(async () => {
  service = await Harness.start();
});

afterAll(async () => {
  await service.close();
});

const MAINTENANCE = /^Service unavailable for maintenance until (\d{4}-\d{2}-\d{2}) 22:00 US Central Time$/;
const RELEASE = /^Service unavailable until the monthly release \(at the latest 22:00 US Central Time\)$/;

test.each([
  // [case, instant (UTC), expected status, message pattern, Retry-After seconds]
  ["maintenance 25th, noon CST", "2026-11-25T18:00:00Z", 503, MAINTENANCE, 36000],
  ["maintenance 25th, 05:59 CST (before)", "2026-11-25T11:59:00Z", 200, undefined, undefined],
  ["maintenance 25th, 06:00 CST (start)", "2026-11-25T12:00:00Z", 503, MAINTENANCE, 57600],
  ["maintenance 25th, 21:59:30 CST", "2026-11-26T03:59:30Z", 503, MAINTENANCE, 30],
  ["maintenance 25th, 22:00 CST (over)", "2026-11-26T04:00:00Z", 200, undefined, undefined],
  ["maintenance 15th July, 06:00 CDT", "2026-07-15T11:00:00Z", 503, MAINTENANCE, 57600],
  ["maintenance 15th July, 05:59 CDT", "2026-07-15T10:59:00Z", 200, undefined, undefined],
  ["maintenance 15th July, 21:59 CDT", "2026-07-16T02:59:00Z", 503, MAINTENANCE, 60],
  // 15 March 2026 is a week after the US switch to CDT (8 March): 11:00Z is 06:00 CDT, not 05:00 CST.
  ["15th March just after the DST start, 06:00 CDT", "2026-03-15T11:00:00Z", 503, MAINTENANCE, 57600],
  ["15th March just after the DST start, 05:30 CDT", "2026-03-15T10:30:00Z", 200, undefined, undefined],
  // 15 November 2026 is two weeks after the switch back (1 November): 11:30Z is 05:30 CST, not 06:30 CDT.
  ["15th November after the DST end, 05:30 CST", "2026-11-15T11:30:00Z", 200, undefined, undefined],
  ["15th November after the DST end, 06:00 CST", "2026-11-15T12:00:00Z", 503, MAINTENANCE, 57600],
  // Release day = 3rd business day: Thu 3 Dec 2026 (CST), Fri 3 Apr 2026 (CDT); release at 12:00 Central.
  ["release day December, 07:00 CST", "2026-12-03T13:00:00Z", 503, RELEASE, 18000],
  ["release day December, 05:00 CST", "2026-12-03T11:00:00Z", 200, undefined, undefined],
  ["release day December, released 12:00 CST", "2026-12-03T18:00:00Z", 200, undefined, undefined],
  ["release day April, 11:59 CDT", "2026-04-03T16:59:00Z", 503, RELEASE, 60],
  ["release day April, released 12:00 CDT", "2026-04-03T17:00:00Z", 200, undefined, undefined],
  ["an ordinary weekday", QUIET_NOW, 200, undefined, undefined],
])("%s (%s): %i", async (_case, now, status, message, retryAfter) => {
  await service.post("/__admin/clock", { now });
  service.forgetToken();
  const answer =
    status === 200
      ? await service.get<{ message: string }>("/energy_price/v1/data_limits")
      : await service.request<{ message: string }>("GET", "/energy_price/v1/data_limits");
  expect(answer.status).toBe(status);
  if (message !== undefined) expect(answer.body.message).toMatch(message);
  expect(answer.headers.get("retry-after")).toBe(retryAfter === undefined ? null : String(retryAfter));
});

test("the maintenance message names the day", async () => {
  await service.post("/__admin/clock", { now: "2026-11-25T18:00:00Z" });
  const answer = await service.request<{ message: string }>("GET", "/commodity_price/v1/export/series");
  expect(answer.body.message).toBe(
    "Service unavailable for maintenance until 2026-11-25 22:00 US Central Time",
  );
});

test("the token operation is down too; admin controls are not", async () => {
  await service.post("/__admin/clock", { now: "2026-11-25T18:00:00Z" });
  const token = await service.post("/access_token/v1", {
    username: "analyst@pcd.example",
    password: "pcd-emulator",
  });
  expect(token.status).toBe(503);
  expect((await service.request("GET", "/__admin/stats")).status).toBe(200);
});

test("the release publishes the previous month at 12:00 Central on the 3rd business day", async () => {
  const latest = async (now: string): Promise<string | undefined> => {
    await service.post("/__admin/clock", { now });
    service.forgetToken();
    const answer = await service.get<InfoRecord[]>("/energy_price/v1/export/series");
    const record = answer.body.find((r) => r.remark_1 === "lag: 0" && r.remark_2 === NOT_APPLICABLE);
    return record?.last_available_final;
  };
  expect(await latest("2026-04-03T10:00:00Z")).toMatch(/^2026-0[12]-01$/);
  expect(await latest("2026-04-03T17:00:00Z")).toMatch(/^2026-0[23]-01$/);
  const clock = await service.request<{ latestConcludedMonth: string }>("GET", "/__admin/clock");
  expect(clock.body.latestConcludedMonth).toBe("2026-03-01");
});

test("--downtime off never answers 503", async () => {
  const open = await Harness.start({ downtime: false, now: "2026-11-25T18:00:00Z" });
  try {
    expect((await open.get("/energy_price/v1/data_limits")).status).toBe(200);
  } finally {
    await open.close();
  }
});
