// Through a team gateway a data call names the catalog the engine holds (the time the gateway
// said it read it), so an instance of the gateway with an older copy judges what it keeps
// against that catalog: also after a restart on a saved catalog, when no Series Info is read.
import { MemoryStorage } from "../../src/core/storage";
import { QUIET_TIME } from "./http/fake-fetch";
import { fakePcd, settle, signedInEngine } from "./support/fake-pcd-fetch";

const CODE = "68520-8-1";
// A minute before the engine's clock starts (QUIET_TIME).
const READ_AT = new Date(QUIET_TIME - 60_000).toISOString();

beforeEach(() => {
  jest.useFakeTimers({ now: QUIET_TIME, doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
});

afterEach(() => {
  jest.useRealTimers();
});

test.each([
  ["a gateway's token: its read time", { iss: "pcd-gateway", sub: "ann@team.example" }, READ_AT],
  ["the service's own token: no such header", {}, undefined],
])("a session started again on the saved catalog, %s", async (_case, tokenClaims, named) => {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  pcd.tokenClaims = tokenClaims;
  pcd.catalogReadAt = READ_AT;
  const storage = new MemoryStorage();
  const first = await signedInEngine(pcd, {}, storage);
  expect((await settle(first.lookup(CODE), 5_000)).status).toBe("fulfilled");
  await settle(first.idle(), 5_000);

  const second = await signedInEngine(pcd, {}, storage);
  const before = pcd.urls.length;
  const series = settle(
    second.resolve(CODE, null, null).then((request) => second.getSeries(request)),
    10_000,
  );
  expect((await series).status).toBe("fulfilled");
  const asked = pcd.urls.slice(before);
  // The saved catalog is current: no Series Info; the data call names it.
  expect(asked.filter((url) => /\/v1\/export\/series$/.test(url))).toEqual([]);
  const dataCall = asked.findIndex((url) => url.includes(`/export/series/${CODE}`));
  expect(dataCall).toBeGreaterThanOrEqual(0);
  expect(pcd.headers[before + dataCall]?.["pcd-catalog-read-at"]).toBe(named);
});
