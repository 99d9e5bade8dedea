// How the engine paces its calls by whom it signed in to: the service itself gets at most 10
// calls a second per operation (105 ms apart); a team gateway paces the service's calls
// itself, so its members' engines send theirs at once, within their cap of calls in flight.
import { QUIET_TIME } from "./http/fake-fetch";
import { fakePcd, settle, signedInEngine } from "./support/fake-pcd-fetch";

const CODE = "68520-8-1";

beforeEach(() => {
  jest.useFakeTimers({ now: QUIET_TIME, doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
});

afterEach(() => {
  jest.useRealTimers();
});

test.each([
  ["the service's own token: Series Info calls of the three products 105 ms apart", {}, [0, 105, 210]],
  [
    "a team gateway's token: the three calls at once",
    { iss: "pcd-gateway", sub: "ann@team.example" },
    [0, 0, 0],
  ],
])("%s", async (_name, tokenClaims, expected) => {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  pcd.tokenClaims = tokenClaims;
  const engine = await signedInEngine(pcd);
  const starts: number[] = [];
  pcd.onRequest = (url) => {
    if (/\/v1\/export\/series$/.test(url)) starts.push(Date.now());
  };
  expect((await settle(engine.lookup(CODE), 5_000)).status).toBe("fulfilled");
  expect(starts.map((at) => at - (starts[0] ?? 0))).toEqual(expected);
});
