// A part-filled call waits for the requests already at the gateway: a member's request that has
// come in but is still being checked (its sign-in, the store's look at its keys) rides in the
// call that another member's codes are waiting in, instead of missing it for a call of its own.
// The store's look is held by the test, so what is "on its way" is certain, not a matter of speed.
import type { RunningGateway } from "../../src/gateway/gateway-app";
import type { AnswerCache } from "../../src/gateway/store/gateway-store";
import { memoryStore, type MemoryStore } from "./support/memory-store";
import {
  catalogOf,
  startService,
  startTeamGateway,
  totalDataRequests,
  type ServiceUnderTest,
} from "./support/team";

const PASSWORD = "correct horse battery staple";
/** Long enough that no call in these tests leaves because its first code waited too long. */
const LONGEST_WAIT_MS = 120_000;

let service: ServiceUnderTest;
let store: MemoryStore;
let gateway: RunningGateway;
let codes: string[];
/** The store's first look at a key of this code is held until the test lets it answer. */
let heldCode: string | null = null;
let heldLook: { answer: () => void } | null = null;
/** Told when the store's look at a key of the code has answered. */
const lookWatchers = new Map<string, () => void>();

/** Resolves once the store has answered a look at a key of `code`. */
function lookAnswered(code: string): Promise<void> {
  return new Promise((resolve) => lookWatchers.set(code, resolve));
}

beforeAll(async () => {
  service = await startService();
  codes = (await catalogOf(service, "energy_price")).map((record) => record.code);
  store = memoryStore();
  const answers: AnswerCache = {
    get: async (keys) => {
      const found = await store.answers.get(keys);
      const code = heldCode;
      if (code !== null && keys.some((key) => key.includes(code))) {
        heldCode = null;
        await new Promise<void>((answer) => (heldLook = { answer }));
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
  gateway = await startTeamGateway(
    service,
    { ...store, answers },
    { packingWindowMs: 50, packingSoloWindowMs: 50, packingMaxWaitMs: LONGEST_WAIT_MS },
  );
});

afterAll(async () => {
  await gateway.close();
  await service.close();
});

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

/** Resolves once the store's held look has come. */
async function heldLookCame(): Promise<{ answer: () => void }> {
  while (heldLook === null) await new Promise((resolve) => setTimeout(resolve, 5));
  return heldLook;
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
  heldCode = bobCode;
  const bobAsks = ask(`/energy_price/v1/export/series/${bobCode}`, bob);
  const bobsLook = await heldLookCame();
  // Ann's key reaches the queue and waits for company in a part-filled call: once the store has
  // answered its look, the route asks the queue before any timer of the test can run.
  const annLooked = lookAnswered(annCode);
  const annAsks = ask(`/energy_price/v1/export/series/${annCode}`, ann);
  await annLooked;
  // Ten idle windows pass with no new code: Bob's request, on its way, holds the call.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await valuesCalls()).toEqual(before);
  bobsLook.answer();
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
  // The longest wait is far beyond the test's time limit: only the idle window sends Ann's call,
  // and it does only if the refused request no longer counts as on its way.
  nextCode += 1;
  expect(await ask(`/energy_price/v1/export/series/${codes[nextCode]}`, ann)).toBe(200);
});
