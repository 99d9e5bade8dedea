// Answers kept in a gateway's memory, in front of the shared store: a kept answer is served
// without reading the store, and only while the catalog says it is current. Two gateways on
// one store stand for two instances on one database: after a release one instance buys the
// changed series, and the other, whose memory still holds the old answer, serves the new one
// from the store instead of buying it again or serving the old.
import type { RunningGateway } from "../../src/gateway/gateway-app";
import { until } from "../support/until";
import { memoryStore, type MemoryStore } from "./support/memory-store";
import {
  askGateway,
  catalogOf,
  chargedDuring,
  latestDate,
  startService,
  startTeamGateway,
  type DatedRecord,
  type ServiceUnderTest,
} from "./support/team";

const PASSWORD = "correct horse battery staple";
const MEMBER = "ann@example.com";

let service: ServiceUnderTest;
let store: MemoryStore;
let storeReads: string[];
let first: RunningGateway;
let second: RunningGateway;
let codes: string[];

const ask = (gateway: RunningGateway, pathname: string): Promise<DatedRecord[]> =>
  askGateway(gateway.url, { username: MEMBER, password: PASSWORD }, pathname);

const charged = (work: () => Promise<unknown>): Promise<number> => chargedDuring(service, work);

const latest = (records: readonly DatedRecord[], code: string | undefined): string =>
  latestDate(records.find((record) => record.code === code));

beforeAll(async () => {
  service = await startService();
  codes = (await catalogOf(service, "energy_price")).map((record) => record.code).slice(0, 2);
  store = memoryStore();
  storeReads = [];
  const read = store.answers.get.bind(store.answers);
  store.answers.get = async (keys) => {
    storeReads.push(...keys);
    return read(keys);
  };
  await store.members.save(MEMBER, PASSWORD, { budget: null, admin: false });
  first = await startTeamGateway(service, store);
  second = await startTeamGateway(service, store);
});

afterAll(async () => {
  await first.close();
  await second.close();
  await service.close();
});

test("an answer served once is served again from memory: no store read, no purchase", async () => {
  const values = `/energy_price/v1/export/series/${codes.join(",")}`;
  const bought = await ask(first, values);
  storeReads.length = 0;
  let again: DatedRecord[] = [];
  expect(await charged(async () => (again = await ask(first, values)))).toBe(0);
  expect(storeReads).toEqual([]);
  expect(again).toEqual(bought);
  // The audit still has both answers, the second from the cache (written once answers pause).
  const fromCache = await until(
    () => store.served.filter((row) => row.source === "cache").map((row) => row.code),
    (rows) => rows.length >= codes.length,
    "the second answer's rows in the audit",
  );
  expect(fromCache).toEqual(codes);
});

test("after a release another instance's purchase is served from the store, not the old answer from memory", async () => {
  const [unchanged, updated] = codes;
  const values = `/energy_price/v1/export/series/${unchanged},${updated}`;
  const before = await ask(first, values);
  await ask(second, values);
  await service.admin("POST", "release", { unchanged: [unchanged] });
  // Both catalogs are read again once older than their limit (5 minutes).
  await service.setClock(new Date(service.now() + 10 * 60_000).toISOString());
  expect(await charged(() => ask(second, values))).toBe(1);
  storeReads.length = 0;
  let after: DatedRecord[] = [];
  expect(await charged(async () => (after = await ask(first, values)))).toBe(0);
  expect(latest(after, updated) > latest(before, updated)).toBe(true);
  expect(latest(after, unchanged)).toBe(latest(before, unchanged));
  // Only the changed series was read from the store; the unchanged one came from memory.
  expect(storeReads.some((key) => key.includes(updated ?? "?"))).toBe(true);
  expect(storeReads.some((key) => key.includes(unchanged ?? "?"))).toBe(false);
});
