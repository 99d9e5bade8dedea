// A member's budget through the month users live, against the emulator: it does not come back on
// the 1st, while the team's allowance is still last month's, but at the release, with it; and
// Data Limits says when.
import type { RunningGateway } from "../../../src/gateway/gateway-app";
import { memoryStore, type MemoryStore } from "../support/memory-store";
import { catalogOf, startService, startTeamGateway, type ServiceUnderTest } from "../support/team";

const PASSWORD = "correct horse battery staple";
/** A Monday after November's release (2026-11-04) and away from maintenance days. */
const LATE_NOVEMBER = "2026-11-30T15:00:00Z";
/** The 1st: a new calendar month, two days before December's release (the 3rd business day). */
const FIRST_OF_DECEMBER = "2026-12-01T15:00:00Z";
/** The day after December's release. */
const AFTER_THE_RELEASE = "2026-12-04T15:00:00Z";

let service: ServiceUnderTest;
let store: MemoryStore;
let gateway: RunningGateway | undefined;

beforeEach(async () => {
  service = await startService(LATE_NOVEMBER);
  store = memoryStore();
  await store.members.save("kim@example.com", PASSWORD, { budget: 2, admin: false });
});

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
  await service.close();
});

/** Signs in again: after a jump of days the gateway's 2-hour token has run out. */
async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "kim@example.com", password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function ask(url: string, token: string, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/api/energy_price/v1${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, text: await response.text() };
}

interface DatasetLimits {
  remaining_requests: number;
  member_remaining_requests?: number;
  member_budget_resets_at?: string;
}

async function limitsOf(url: string, token: string, dataset: string): Promise<DatasetLimits | undefined> {
  return (JSON.parse((await ask(url, token, "/data_limits")).text) as Record<string, DatasetLimits>)[dataset];
}

async function datasetCodes(): Promise<{ dataset: string; codes: string[] }> {
  const records = await catalogOf(service, "energy_price");
  const dataset = records[0]?.coverage ?? "";
  const codes = records.filter((record) => record.coverage === dataset).map((record) => record.code);
  expect(codes.length).toBeGreaterThanOrEqual(4);
  return { dataset, codes };
}

test("a member's budget resets at the release, as the team's allowance does, not on the 1st", async () => {
  const running = await startTeamGateway(service, store);
  gateway = running;
  const { dataset, codes } = await datasetCodes();

  let token = await signIn(running.url);
  expect((await ask(running.url, token, `/export/series/${codes[0]},${codes[1]}`)).status).toBe(200);
  const over = await ask(running.url, token, `/export/series/${codes[2]}`);
  expect(over.status).toBe(403);
  expect(over.text).toContain(
    `: until 2026-12-03 the gateway's budget of 2 data requests for dataset '${dataset}' has 0 left;`,
  );
  const november = await limitsOf(running.url, token, dataset);
  expect(november).toMatchObject({
    member_remaining_requests: 0,
    member_budget_resets_at: "2026-12-03T12:00:00.000Z",
  });

  // The 1st: the team's allowance is still November's, and so is the member's budget.
  await service.setClock(FIRST_OF_DECEMBER);
  token = await signIn(running.url);
  expect(await limitsOf(running.url, token, dataset)).toEqual(november);
  expect((await ask(running.url, token, `/export/series/${codes[2]}`)).status).toBe(403);

  // After the release both are whole again, and the member buys.
  await service.setClock(AFTER_THE_RELEASE);
  token = await signIn(running.url);
  const december = await limitsOf(running.url, token, dataset);
  expect(december).toMatchObject({
    member_remaining_requests: 2,
    member_budget_resets_at: "2027-01-05T12:00:00.000Z",
  });
  expect(december?.remaining_requests).toBeGreaterThan(november?.remaining_requests ?? Infinity);
  expect((await ask(running.url, token, `/export/series/${codes[2]}`)).status).toBe(200);
  expect(await limitsOf(running.url, token, dataset)).toMatchObject({
    member_remaining_requests: 1,
    remaining_requests: (december?.remaining_requests ?? 0) - 1,
  });
});

test("a gateway told a later release day (5th business day) keeps the budget until then, and keeps the day for the next start", async () => {
  const running = await startTeamGateway(service, store, { releaseBusinessDay: 5 });
  gateway = running;
  expect(running.releaseDay).toEqual({ day: 5, replaced: null });
  const { dataset, codes } = await datasetCodes();
  let token = await signIn(running.url);
  expect((await ask(running.url, token, `/export/series/${codes[0]},${codes[1]}`)).status).toBe(200);
  expect(await limitsOf(running.url, token, dataset)).toMatchObject({
    member_remaining_requests: 0,
    member_budget_resets_at: "2026-12-07T12:00:00.000Z",
  });

  // The service's release (the 3rd) has passed, the gateway's (the 7th) not yet.
  await service.setClock(AFTER_THE_RELEASE);
  token = await signIn(running.url);
  const refused = await ask(running.url, token, `/export/series/${codes[2]}`);
  expect(refused.status).toBe(403);
  expect(refused.text).toContain(": until 2026-12-07 the gateway's budget of 2 data requests");

  // Started again without the flag, on the same database: the day it keeps.
  await running.close();
  gateway = undefined;
  const again = await startTeamGateway(service, store);
  gateway = again;
  expect(again.releaseDay).toEqual({ day: 5, replaced: null });
  token = await signIn(again.url);
  expect((await ask(again.url, token, `/export/series/${codes[2]}`)).status).toBe(403);
  await service.setClock("2026-12-07T15:00:00Z");
  token = await signIn(again.url);
  expect((await ask(again.url, token, `/export/series/${codes[2]}`)).status).toBe(200);
});
