// A member's budget through the month users live, against the emulator: it does not come back on
// the 1st, while the team's allowance is still last month's, but at the release, with it.
import type { RunningGateway } from "../../../src/gateway/gateway-app";
import { memoryStore } from "../support/memory-store";
import { catalogOf, startService, startTeamGateway, type ServiceUnderTest } from "../support/team";

const PASSWORD = "correct horse battery staple";
/** A Monday after November's release (2026-11-04) and away from maintenance days. */
const LATE_NOVEMBER = "2026-11-30T15:00:00Z";
/** The 1st: a new calendar month, two days before December's release (the 3rd business day). */
const FIRST_OF_DECEMBER = "2026-12-01T15:00:00Z";
/** The day after December's release. */
const AFTER_THE_RELEASE = "2026-12-04T15:00:00Z";

let service: ServiceUnderTest;
let gateway: RunningGateway;

beforeAll(async () => {
  service = await startService(LATE_NOVEMBER);
  const store = memoryStore();
  await store.members.save("kim@example.com", PASSWORD, { budget: 2, admin: false });
  gateway = await startTeamGateway(service, store);
});

afterAll(async () => {
  await gateway.close();
  await service.close();
});

/** Signs in again: after a jump of days the gateway's 2-hour token has run out. */
async function signIn(): Promise<string> {
  const response = await fetch(`${gateway.url}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "kim@example.com", password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function ask(token: string, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gateway.url}/api/energy_price/v1${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, text: await response.text() };
}

async function memberRemaining(token: string, dataset: string): Promise<[number, number] | undefined> {
  const limits = JSON.parse((await ask(token, "/data_limits")).text) as Record<
    string,
    { remaining_requests: number; total_requests: number; member_remaining_requests?: number }
  >;
  const entry = limits[dataset];
  return entry === undefined ? undefined : [entry.member_remaining_requests ?? -1, entry.remaining_requests];
}

test("a member's budget resets at the release, as the team's allowance does, not on the 1st", async () => {
  const records = await catalogOf(service, "energy_price");
  const dataset = records[0]?.coverage ?? "";
  const codes = records.filter((record) => record.coverage === dataset).map((record) => record.code);
  expect(codes.length).toBeGreaterThanOrEqual(4);

  let token = await signIn();
  expect((await ask(token, `/export/series/${codes[0]},${codes[1]}`)).status).toBe(200);
  const over = await ask(token, `/export/series/${codes[2]}`);
  expect(over.status).toBe(403);
  expect(over.text).toContain(
    `the gateway's budget of 2 data requests for dataset '${dataset}' has 0 left until 2026-12-03;`,
  );
  const [, teamLeftInNovember] = (await memberRemaining(token, dataset)) ?? [];

  // The 1st: the team's allowance is still November's, and so is the member's budget.
  await service.setClock(FIRST_OF_DECEMBER);
  token = await signIn();
  expect(await memberRemaining(token, dataset)).toEqual([0, teamLeftInNovember]);
  expect((await ask(token, `/export/series/${codes[2]}`)).status).toBe(403);

  // After the release both are whole again, and the member buys.
  await service.setClock(AFTER_THE_RELEASE);
  token = await signIn();
  const [memberLeft, teamLeft] = (await memberRemaining(token, dataset)) ?? [];
  expect(memberLeft).toBe(2);
  expect(teamLeft).toBeGreaterThan(teamLeftInNovember ?? Infinity);
  expect((await ask(token, `/export/series/${codes[2]}`)).status).toBe(200);
  expect(await memberRemaining(token, dataset)).toEqual([1, (teamLeft ?? 0) - 1]);
});
