// A part-filled call waits for the requests already at the gateway: a signed-in member's request
// still at the store's look at its keys rides in the call that another member's codes are
// waiting in, instead of missing it for a call of its own; a request whose token is still being
// checked holds nothing, nor does one that has ended, even with its answer queued on a
// connection the member hung up. The store's look and the token's check are held by the test and the
// packing waits run on the test's clock, so what is "on its way" and when a call may leave are
// certain, not a matter of the machine's speed.
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import type { RunningGateway } from "../../src/gateway/gateway-app";
import type { AnswerCache } from "../../src/gateway/store/gateway-store";
import { until } from "../support/until";
import { manualPackingTimers } from "./support/manual-packing-timers";
import { metricSamples } from "./support/metric-samples";
import { memoryStore, type MemoryStore } from "./support/memory-store";
import {
  catalogOf,
  startService,
  startTeamGateway,
  totalDataRequests,
  type ServiceUnderTest,
} from "./support/team";

const PASSWORD = "correct horse battery staple";
const IDLE_WINDOW_MS = 50;
/** Far beyond what any test moves the packing clock: no call leaves for its longest wait. */
const LONGEST_WAIT_MS = 120_000;

const packing = manualPackingTimers(0);
let service: ServiceUnderTest;
let store: MemoryStore;
let gateway: RunningGateway;
let codes: string[];
/** Per code: told when the store's look at a key of it has answered (after any hold). */
const lookWatchers = new Map<string, () => void>();
/** The code whose next look the store holds, and who is told once it is held. */
let hold: { code: string; held: (answer: () => void) => void } | null = null;
/** When set, the next read of the token secret (a token's check) is held, and this is told. */
let holdTokenCheck: ((release: () => void) => void) | null = null;

beforeAll(async () => {
  service = await startService();
  codes = (await catalogOf(service, "energy_price")).map((record) => record.code);
  store = memoryStore();
  const answers: AnswerCache = {
    get: async (keys) => {
      const found = await store.answers.get(keys);
      const held = hold;
      if (held !== null && keys.some((key) => key.includes(held.code))) {
        hold = null;
        await new Promise<void>((answer) => held.held(answer));
      }
      for (const [watched, tell] of lookWatchers) {
        if (keys.some((key) => key.includes(watched))) {
          lookWatchers.delete(watched);
          tell();
        }
      }
      return found;
    },
    put: (list) => store.answers.put(list),
  };
  await store.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
  await store.members.save("bob@example.com", PASSWORD, { budget: null, admin: false });
  const tokenSecret = async (): Promise<Uint8Array> => {
    const held = holdTokenCheck;
    if (held !== null) {
      holdTokenCheck = null;
      await new Promise<void>((release) => held(release));
    }
    return store.tokenSecret();
  };
  gateway = await startTeamGateway(
    service,
    { ...store, answers, tokenSecret },
    {
      packingWindowMs: IDLE_WINDOW_MS,
      packingSoloWindowMs: IDLE_WINDOW_MS,
      packingMaxWaitMs: LONGEST_WAIT_MS,
      later: packing.later,
      elapsed: packing.now,
    },
  );
});

afterAll(async () => {
  await gateway.close();
  await service.close();
});

/** Holds the store's next look at a key of `code`; resolves, with its release, once it is held. */
function holdLookAt(code: string): Promise<() => void> {
  return new Promise((resolve) => (hold = { code, held: resolve }));
}

/**
 * Resolves once the store has answered a look at a key of `code` and the request has gone on
 * from there: the route's steps up to the queue are promise turns, all run before an immediate.
 */
function lookAnswered(code: string): Promise<void> {
  return new Promise<void>((resolve) => lookWatchers.set(code, resolve)).then(
    () => new Promise((resolve) => setImmediate(resolve)),
  );
}

async function tokenOf(username: string): Promise<string> {
  const response = await fetch(`${gateway.url}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function ask(path: string, token: string): Promise<number> {
  return fetch(`${gateway.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
  );
}

/** Series Values calls the service has received so far, and the data requests it charged. */
async function valuesCalls(): Promise<{ calls: number; charged: number }> {
  const stats = await service.stats();
  return { calls: stats.calls.series_values ?? 0, charged: totalDataRequests(stats) };
}

test("a request still at its store look rides in the call another member's code waits in", async () => {
  const [ann, bob] = [await tokenOf("ann@example.com"), await tokenOf("bob@example.com")];
  const before = await valuesCalls();
  const [annCode, bobCode] = [codes[0] as string, codes[1] as string];
  // Bob's request comes in first and stays at the store's look at its key.
  const bobsLook = holdLookAt(bobCode);
  const bobAsks = ask(`/energy_price/v1/export/series/${bobCode}`, bob);
  const releaseBob = await bobsLook;
  // Ann's key reaches the queue and waits for company in a part-filled call.
  const annLooked = lookAnswered(annCode);
  const annAsks = ask(`/energy_price/v1/export/series/${annCode}`, ann);
  await annLooked;
  // Ten idle windows pass with no new code: Bob's request, on its way, holds the call, which
  // still has a look of its own set on the packing clock (a call sent would have none).
  packing.advance(10 * IDLE_WINDOW_MS);
  expect(packing.pending()).toBe(1);
  expect(await valuesCalls()).toEqual(before);
  const bobLooked = lookAnswered(bobCode);
  releaseBob();
  await bobLooked;
  packing.advance(IDLE_WINDOW_MS);
  expect(await Promise.all([annAsks, bobAsks])).toEqual([200, 200]);
  const after = await valuesCalls();
  expect({ calls: after.calls - before.calls, charged: after.charged - before.charged }).toEqual({
    calls: 1,
    charged: 2,
  });
});

let nextCode = 2;

test.each<[string, (token: string) => Promise<number>, number]>([
  // what, the request that ends before it reaches the queue, its status
  ["a request refused at sign-in", () => ask(`/energy_price/v1/export/series/${codes[90]}`, "no-token"), 401],
  ["a request for an unknown product", (token) => ask("/no_such_product/v1/export/series/1-1-1", token), 404],
  [
    "a request whose codes do not read",
    (token) => ask("/energy_price/v1/export/series/not-a-code", token),
    400,
  ],
])("%s holds no call once it has ended", async (_, refused, status) => {
  const ann = await tokenOf("ann@example.com");
  expect(await refused(ann)).toBe(status);
  nextCode += 1;
  const code = codes[nextCode] as string;
  const annLooked = lookAnswered(code);
  const annAsks = ask(`/energy_price/v1/export/series/${code}`, ann);
  await annLooked;
  // One idle window on the packing clock sends Ann's call, but only if the refused request no
  // longer counts as on its way; otherwise it waits for its longest wait, which never comes,
  // and the test fails at its time limit.
  packing.advance(IDLE_WINDOW_MS);
  expect(await annAsks).toBe(200);
});

test("a request whose token is still being checked holds no call: only a signed-in member's is on its way", async () => {
  const ann = await tokenOf("ann@example.com");
  const before = await valuesCalls();
  nextCode += 1;
  const code = codes[nextCode] as string;
  const annLooked = lookAnswered(code);
  const annAsks = ask(`/energy_price/v1/export/series/${code}`, ann);
  await annLooked;
  // A request nobody signed comes in and stays at its token's check.
  const checkHeld = new Promise<() => void>((resolve) => (holdTokenCheck = resolve));
  const strangerAsks = ask(`/energy_price/v1/export/series/${codes[nextCode + 1]}`, "not.a.token");
  const releaseCheck = await checkHeld;
  try {
    // One idle window sends Ann's call while the stranger's request is still being checked: no
    // look of the call's is left on the packing clock (a call held would have set one).
    packing.advance(IDLE_WINDOW_MS);
    expect(packing.pending()).toBe(0);
    expect(await annAsks).toBe(200);
    const after = await valuesCalls();
    expect(after.calls - before.calls).toBe(1);
  } finally {
    releaseCheck();
  }
  expect(await strangerAsks).toBe(401);
});

/** Ann's finished Series Values requests, as the gateway's /metrics counts them. */
async function annsValuesRequests(): Promise<number> {
  const samples = await metricSamples(gateway.url, "pcd_gateway_member_requests_total");
  return samples.get('member="ann@example.com",operation="series_values"') ?? 0;
}

test("a request whose answer waits behind another on a connection the member hangs up holds no call", async () => {
  const ann = await tokenOf("ann@example.com");
  nextCode += 2;
  const [heldCode, code] = [codes[nextCode - 1] as string, codes[nextCode] as string];
  const finished = await annsValuesRequests();
  // Two requests on one connection: the first stays at the store's look, so the second's
  // answer (a 400) waits behind the first's and has no connection of its own yet.
  const firstLook = holdLookAt(heldCode);
  const accepted: Socket[] = [];
  const onConnection = (connection: Socket): number => accepted.push(connection);
  gateway.app.server.on("connection", onConnection);
  const { port } = new URL(gateway.url);
  const socket = connect(Number(port), "127.0.0.1");
  socket.on("error", () => undefined);
  await once(socket, "connect");
  const gatewaySide = await until(
    () => accepted.find((connection) => connection.remotePort === socket.localPort),
    (connection) => connection !== undefined,
    "the gateway to accept the connection",
  );
  gateway.app.server.off("connection", onConnection);
  const request = (path: string): string =>
    `GET /api${path} HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${ann}\r\n\r\n`;
  socket.write(
    request(`/energy_price/v1/export/series/${heldCode}`) +
      request("/energy_price/v1/export/series/not-a-code"),
  );
  const releaseFirst = await firstLook;
  try {
    await until(annsValuesRequests, (count) => count === finished + 1, "the second request to end");
    // The member hangs up: once the gateway's side of the connection has closed, the first
    // answer has had its "close"; the second, queued behind it, never had a connection.
    const closed = once(gatewaySide as Socket, "close");
    socket.destroy();
    await closed;
    const annLooked = lookAnswered(code);
    const annAsks = ask(`/energy_price/v1/export/series/${code}`, ann);
    await annLooked;
    packing.advance(IDLE_WINDOW_MS);
    expect(packing.pending()).toBe(0);
    expect(await annAsks).toBe(200);
  } finally {
    releaseFirst();
  }
});
