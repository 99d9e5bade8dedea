// A purchase still out when the series changes, against the emulator: a request made after the
// gateway read the new catalog does not take that purchase's answer, nor does the gateway keep
// it as current.
import type { RunningGateway } from "../../../src/gateway/gateway-app";
import { until } from "../../support/until";
import { memoryStore, type MemoryStore } from "../support/memory-store";
import {
  catalogOf,
  chargedDuring,
  latestDate,
  startService,
  startTeamGateway,
  type DatedRecord,
  type ServiceUnderTest,
  upstreamOf,
  memberToken,
} from "../support/team";

const PASSWORD = "correct horse battery staple";

let service: ServiceUnderTest;
let store: MemoryStore;
let gateway: RunningGateway | undefined;

beforeEach(async () => {
  service = await startService();
  store = memoryStore();
  await store.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
  await store.members.save("bob@example.com", PASSWORD, { budget: 100, admin: false });
});

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
  await service.close();
});

function tokenOf(url: string, username: string): Promise<string> {
  return memberToken(url, { username, password: PASSWORD });
}

async function ask(url: string, token: string, codes: string): Promise<DatedRecord[]> {
  const response = await fetch(`${url}/api/energy_price/v1/export/series/${codes}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as DatedRecord[];
}

test("a request made after a release does not take the answer of a purchase made before it, and that answer is not kept as current", async () => {
  const codes = (await catalogOf(service, "energy_price")).map((record) => record.code);
  const [changed = "", other = ""] = codes.slice(5, 7);
  // The first data call's answer is held until the test lets it go.
  const hold: { release?: () => void } = {};
  let held = false;
  const running = await startTeamGateway(service, store, {
    upstream: {
      ...upstreamOf(service),
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!String(input).includes("/export/series/") || held) return response;
        held = true;
        const body = await response.text();
        await new Promise<void>((resolve) => (hold.release = resolve));
        return new Response(body, { status: response.status, headers: response.headers });
      },
    },
  });
  gateway = running;
  const ann = await tokenOf(running.url, "ann@example.com");
  const bob = await tokenOf(running.url, "bob@example.com");

  const before = ask(running.url, ann, changed);
  const letGo = await until(
    () => hold.release,
    (found) => found !== undefined,
    "ann's call at the service",
  );
  await service.admin("POST", "release", {});
  // The catalog is read again (as after its few minutes, or a downtime's end).
  running.catalog.markStale("energy_price");
  const after = ask(running.url, bob, `${changed},${other}`);
  // Bob's request holds his budget once it has read the new catalog, just before it asks the queue.
  await until(
    () => store.holds.heldBy("bob@example.com", "energy_price", new Date(service.now())),
    (holds) => holds.size > 0,
    "bob's request at the purchase queue",
  );
  letGo?.();
  const [annRecords, bobRecords] = await Promise.all([before, after]);

  const beforeRelease = latestDate(annRecords[0]);
  const afterRelease = latestDate(bobRecords.find((record) => record.code === changed));
  // The release brought the series a month further: bob has it, ann had the month before.
  expect(afterRelease > beforeRelease).toBe(true);
  // Asked again: what the gateway keeps for the series is the release's, and costs nothing.
  let again: DatedRecord[] = [];
  expect(await chargedDuring(service, async () => (again = await ask(running.url, ann, changed)))).toBe(0);
  expect(latestDate(again[0])).toBe(afterRelease);
});
