// The gateway through a release and a restart, against the emulator: a series the release
// changed is bought again, an unchanged one is not; History is bought again after a revision;
// a gateway restarted on the same database buys nothing it already holds.
import "./support/pglite-outside-sandbox";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunningGateway } from "../../src/gateway/gateway-app";
import { openGatewayStore } from "../../src/gateway/store/sql-gateway-store";
import type { GatewayStore } from "../../src/gateway/store/gateway-store";
import { newPGliteDirectory } from "./support/new-pglite-directory";
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
let root: string;
let directory: string;
let store: GatewayStore;
let gateway: RunningGateway;
let codes: string[];

async function open(): Promise<void> {
  store = await openGatewayStore(directory);
  gateway = await startTeamGateway(service, store);
}

async function shut(): Promise<void> {
  await gateway.close();
  await store.close();
}

const ask = (pathname: string): Promise<DatedRecord[]> =>
  askGateway(gateway.url, { username: MEMBER, password: PASSWORD }, pathname);

const charged = (work: () => Promise<unknown>): Promise<number> => chargedDuring(service, work);

beforeAll(async () => {
  service = await startService();
  codes = (await catalogOf(service, "energy_price")).map((record) => record.code).slice(0, 4);
  root = await mkdtemp(path.join(tmpdir(), "pcd-gateway-"));
  directory = newPGliteDirectory(path.join(root, "store"));
  await open();
  await store.members.save(MEMBER, PASSWORD, { budget: null, admin: false });
});

afterAll(async () => {
  await shut();
  await service.close();
  await rm(root, { recursive: true, force: true });
});

test("a restart on the same database costs no data request", async () => {
  const values = `/energy_price/v1/export/series/${codes.join(",")}`;
  expect(await charged(() => ask(values))).toBe(codes.length);
  await shut();
  await open();
  expect(await charged(() => ask(values))).toBe(0);
});

test("after a release only the series it changed are bought again; History again after a revision", async () => {
  const [unchanged, updated, revised] = codes;
  const values = `/energy_price/v1/export/series/${unchanged},${updated}`;
  const history = `/energy_price/v1/export/series_hist/${revised}`;
  await ask(values);
  await ask(history);
  const before = await ask(values);
  await service.admin("POST", "release", { unchanged: [unchanged], revise: [revised] });
  // The catalog is read again once the gateway's copy is older than its limit (5 minutes).
  await service.setClock(new Date(service.now() + 10 * 60_000).toISOString());
  let after: DatedRecord[] = [];
  expect(await charged(async () => (after = await ask(values)))).toBe(1);
  const month = (code: string | undefined, records: typeof after) =>
    latestDate(records.find((record) => record.code === code));
  expect(month(unchanged, after)).toBe(month(unchanged, before));
  expect(month(updated, after) > month(updated, before)).toBe(true);
  expect(await charged(() => ask(history))).toBe(1);
  expect(await charged(() => ask(history))).toBe(0);
});
