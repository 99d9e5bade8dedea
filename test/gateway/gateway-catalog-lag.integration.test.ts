// Two instances of the gateway on one store, against the emulator: their catalog copies may be
// minutes apart. A member whose engine read the newer catalog through one instance names it in
// its data call to the other, which takes the saved copy first: a History revised since its own
// copy was read is bought again, not served from what it kept as current.
import { memoryStore } from "./support/memory-store";
import {
  catalogOf,
  chargedDuring,
  memberToken,
  startService,
  startTeamGateway,
  type DatedRecord,
  type ServiceUnderTest,
} from "./support/team";

const MEMBER = { username: "ann@example.com", password: "correct horse battery staple" };

let service: ServiceUnderTest;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => service.close());

async function ask(
  gatewayUrl: string,
  pathname: string,
  headers: Record<string, string> = {},
): Promise<{ records: DatedRecord[]; catalogReadAt: string | null }> {
  const response = await fetch(`${gatewayUrl}/api${pathname}`, {
    headers: { ...headers, authorization: `Bearer ${await memberToken(gatewayUrl, MEMBER)}` },
  });
  if (response.status !== 200)
    throw new Error(`${pathname}: HTTP ${response.status} ${await response.text()}`);
  return {
    records: (await response.json()) as DatedRecord[],
    catalogReadAt: response.headers.get("pcd-catalog-read-at"),
  };
}

test("a member holding the newer catalog gets the revised History through the instance with the older copy", async () => {
  const store = memoryStore();
  await store.members.save(MEMBER.username, MEMBER.password, { budget: null, admin: false });
  const first = await startTeamGateway(service, store);
  const second = await startTeamGateway(service, store);
  try {
    const [code] = (await catalogOf(service, "energy_price")).map((record) => record.code);
    const history = `/energy_price/v1/export/series_hist/${code}`;
    // The second instance reads its catalog and buys the History.
    expect(await chargedDuring(service, () => ask(second.url, history))).toBe(1);
    const kept = (await ask(second.url, history)).records;

    // The provider revises it; within minutes the first instance reads the catalog that says so.
    await service.admin("POST", "revise", { codes: [code] });
    await service.setClock(new Date(service.now() + 60_000).toISOString());
    const { catalogReadAt } = await ask(first.url, "/energy_price/v1/export/series");
    if (catalogReadAt === null) throw new Error("the first instance's Series Info carried no read time");

    // A call that names no catalog is judged by the second instance's own copy, as before.
    expect(await chargedDuring(service, () => ask(second.url, history))).toBe(0);
    // The member's engine names the catalog it holds: the revision is bought, once.
    let revised: DatedRecord[] = [];
    const named = { "pcd-catalog-read-at": catalogReadAt };
    expect(
      await chargedDuring(service, async () => (revised = (await ask(second.url, history, named)).records)),
    ).toBe(1);
    expect(revised).not.toEqual(kept);
    expect(await chargedDuring(service, () => ask(second.url, history, named))).toBe(0);
  } finally {
    await first.close();
    await second.close();
  }
});
