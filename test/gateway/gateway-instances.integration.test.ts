// Two gateway instances on one Postgres, as behind a load balancer, against the emulator: the
// same keys asked of both at once are bought once, and members, tokens and the audit are shared.
// Skipped where Debian's Postgres is not installed, except in CI, where its absence fails.
import type { RunningGateway } from "../../src/gateway/gateway-app";
import type { GatewayStore } from "../../src/gateway/store/gateway-store";
import { openGatewayStore } from "../../src/gateway/store/sql-gateway-store";
import {
  POSTGRES_MISSING,
  postgresInstalled,
  postgresRequired,
  startTestPostgres,
  type TestPostgres,
} from "./support/postgres";
import {
  catalogOf,
  startService,
  startTeamGateway,
  totalDataRequests,
  type CatalogRecord,
  type ServiceUnderTest,
} from "./support/team";
import { allowancePeriodAt } from "../../src/gateway/members/allowance-period";
import { DEFAULT_RELEASE_BUSINESS_DAY } from "../../src/gateway/members/release-day";

const PASSWORD = "correct horse battery staple";
const MEMBERS = ["ann@example.com", "bob@example.com"];
const runs = postgresInstalled() || postgresRequired();

let service: ServiceUnderTest;
let postgres: TestPostgres | null = null;
const stores: GatewayStore[] = [];
const gateways: RunningGateway[] = [];
let codes: string[];
let catalog: CatalogRecord[];

async function tokenAt(gateway: RunningGateway, member: string): Promise<string> {
  const response = await fetch(`${gateway.url}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: member, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function values(gateway: RunningGateway, token: string, batch: readonly string[]): Promise<string[]> {
  const response = await fetch(`${gateway.url}/api/energy_price/v1/export/series/${batch.join(",")}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as Array<{ code: string }>).map((record) => record.code).sort();
}

(runs ? describe : describe.skip)(
  runs ? "two instances on one Postgres" : `skipped: ${POSTGRES_MISSING}`,
  () => {
    beforeAll(async () => {
      postgres = await startTestPostgres();
      if (postgres === null) throw new Error(POSTGRES_MISSING);
      service = await startService();
      catalog = await catalogOf(service, "energy_price");
      codes = catalog.map((record) => record.code).slice(0, 30);
      for (let instance = 0; instance < 2; instance += 1) {
        const store = await openGatewayStore(postgres.url);
        stores.push(store);
        gateways.push(await startTeamGateway(service, store));
      }
      // Members added through one instance are members of both.
      for (const member of MEMBERS)
        await stores[0]?.members.save(member, PASSWORD, { budget: null, admin: false });
    });

    afterAll(async () => {
      for (const gateway of gateways) await gateway.close();
      for (const store of stores) await store.close();
      await service?.close();
      await postgres?.drop();
    });

    test("the same keys asked of both instances at once are bought once, and both answer them", async () => {
      const [first, second] = gateways as [RunningGateway, RunningGateway];
      const annAtFirst = await tokenAt(first, "ann@example.com");
      const bobAtSecond = await tokenAt(second, "bob@example.com");
      // A token issued by one instance is accepted by the other (one shared secret).
      expect(await values(second, annAtFirst, codes.slice(0, 1))).toEqual(codes.slice(0, 1));
      const before = totalDataRequests(await service.stats());
      // Overlapping batches, several rounds, both instances at once: whatever the interleaving,
      // each key is charged once.
      for (let round = 0; round < 5; round += 1) {
        const batch = codes.slice(1 + round * 5, 1 + round * 5 + 8);
        const [a, b] = await Promise.all([
          values(first, annAtFirst, batch),
          values(second, bobAtSecond, batch),
        ]);
        expect(a).toEqual([...batch].sort());
        expect(b).toEqual([...batch].sort());
      }
      const distinct = new Set(codes.slice(1, 1 + 4 * 5 + 8)).size;
      expect(totalDataRequests(await service.stats()) - before).toBe(distinct);
      // One audit for both instances: the usage report's purchases equal the service's charge.
      const period = allowancePeriodAt(new Date(service.now()), DEFAULT_RELEASE_BUSINESS_DAY);
      const usage = await (stores[1] as GatewayStore).audit.usage(period);
      expect(usage.reduce((sum, row) => sum + row.purchased, 0)).toBe(
        totalDataRequests(await service.stats()),
      );
    });

    test("a member's requests at both instances at once never together pass their budget", async () => {
      await stores[0]?.members.save("cy@example.com", PASSWORD, { budget: 4, admin: false });
      const [first, second] = gateways as [RunningGateway, RunningGateway];
      const [cyAtFirst, cyAtSecond] = [
        await tokenAt(first, "cy@example.com"),
        await tokenAt(second, "cy@example.com"),
      ];
      // Six codes of one dataset nobody asked for yet: three for each instance.
      const dataset = catalog[30]?.coverage;
      const unasked = catalog
        .slice(30)
        .filter((record) => record.coverage === dataset)
        .map((record) => record.code);
      expect(unasked.length).toBeGreaterThanOrEqual(6);
      const before = totalDataRequests(await service.stats());
      const ask = (gateway: RunningGateway, token: string, batch: readonly string[]) =>
        fetch(`${gateway.url}/api/energy_price/v1/export/series/${batch.join(",")}`, {
          headers: { authorization: `Bearer ${token}` },
        }).then(async (response) => ({ status: response.status, text: await response.text() }));
      const answers = await Promise.all([
        ask(first, cyAtFirst, unasked.slice(0, 3)),
        ask(second, cyAtSecond, unasked.slice(3, 6)),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
      expect(answers.find((answer) => answer.status === 403)?.text).toContain(
        `the gateway's budget of 4 data requests for dataset '${dataset}' has 1 left; this request needs 3.`,
      );
      expect(totalDataRequests(await service.stats()) - before).toBe(3);
    });

    test("sign-in attempts at both instances count against one limit", async () => {
      await stores[0]?.members.save("dee@example.com", PASSWORD, { budget: null, admin: false });
      const [first, second] = gateways as [RunningGateway, RunningGateway];
      const attempt = (gateway: RunningGateway) =>
        fetch(`${gateway.url}/auth/access_token/v1`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: "dee@example.com", password: "a guess" }),
        }).then((response) => response.status);
      // Ten guesses a minute for one name from one address (the gateway's limit), taken turn about.
      const statuses = [];
      for (let guess = 0; guess < 11; guess += 1)
        statuses.push(await attempt(guess % 2 === 0 ? first : second));
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
      expect(await attempt(first)).toBe(429);
    });
  },
);
