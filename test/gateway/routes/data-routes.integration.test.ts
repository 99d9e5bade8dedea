// A member's data request against the emulator as the service, where its keys are joined from
// another member's purchase that started while the request's budget was being checked: the
// test holds the budget check and the service's answers, and lets each go when it says.
import { memoryStore, type MemoryStore } from "../support/memory-store";
import {
  catalogOf,
  startService,
  startTeamGateway,
  totalDataRequests,
  type ServiceUnderTest,
  upstreamOf,
} from "../support/team";
import type { RunningGateway } from "../../../src/gateway/gateway-app";
import { allowancePeriodAt } from "../../../src/gateway/members/allowance-period";
import { DEFAULT_RELEASE_BUSINESS_DAY } from "../../../src/gateway/members/release-day";
import type { BudgetHolds } from "../../../src/gateway/store/gateway-store";

const PASSWORD = "correct horse battery staple";

let service: ServiceUnderTest;
/** Codes of one dataset, a few for each case. */
let codes: string[];
let dataset: string;
/** What a test left to end should it fail midway. */
const cleanUp: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  service = await startService();
  const records = await catalogOf(service, "energy_price");
  dataset = records[200]?.coverage ?? "";
  codes = records
    .slice(200)
    .filter((record) => record.coverage === dataset)
    .slice(0, 4)
    .map((record) => record.code);
  expect(codes).toHaveLength(4);
});
afterEach(async () => {
  for (const step of cleanUp.splice(0)) await step();
});
afterAll(async () => {
  await service.close();
});

/** The next turn of the event loop: every promise chain that needs no I/O has run by then. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A promise and the function that resolves it. */
function signal(): { reached: Promise<void>; reach: () => void } {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

interface Team {
  gateway: RunningGateway;
  store: MemoryStore;
  /** jo's budget check has started (it waits for `joMayGo`). */
  joChecking: Promise<void>;
  joMayGo: () => void;
  /** jo's budget check has taken its hold. */
  joHeld: Promise<void>;
  /** A data call has reached the service's door (every one waits for `answer`). */
  callOut: Promise<void>;
  answer: () => void;
  ask(member: string, asked: readonly string[]): Promise<number>;
}

async function team(): Promise<Team> {
  const store = memoryStore();
  await store.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
  await store.members.save("jo@example.com", PASSWORD, { budget: 10, admin: false });
  const joChecking = signal();
  const joMayGo = signal();
  const joHeld = signal();
  const holds: BudgetHolds = {
    ...store.holds,
    hold: async (request) => {
      if (request.member !== "jo@example.com") return store.holds.hold(request);
      joChecking.reach();
      await joMayGo.reached;
      const held = await store.holds.hold(request);
      joHeld.reach();
      return held;
    },
  };
  const callOut = signal();
  const answering = signal();
  const gateway = await startTeamGateway(
    service,
    { ...store, holds },
    {
      upstream: {
        ...upstreamOf(service),
        fetch: async (input, init) => {
          if (/\/v1\/export\/series\//.test(String(input))) {
            callOut.reach();
            await answering.reached;
          }
          return fetch(input, init);
        },
      },
      // jo's request, on its way to the queue while its budget is checked, holds ann's call for
      // company no longer than this.
      packingWindowMs: 0,
      packingSoloWindowMs: 0,
      packingMaxWaitMs: 20,
    },
  );
  cleanUp.push(async () => {
    joMayGo.reach();
    answering.reach();
    await gateway.close();
  });
  const tokens = new Map<string, string>();
  for (const member of ["ann@example.com", "jo@example.com"]) {
    const response = await fetch(`${gateway.url}/auth/access_token/v1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: member, password: PASSWORD }),
    });
    tokens.set(member, ((await response.json()) as { access_token: string }).access_token);
  }
  return {
    gateway,
    store,
    joChecking: joChecking.reached,
    joMayGo: joMayGo.reach,
    joHeld: joHeld.reached,
    callOut: callOut.reached,
    answer: answering.reach,
    ask: async (member, asked) => {
      const response = await fetch(`${gateway.url}/api/energy_price/v1/export/series/${asked.join(",")}`, {
        headers: { authorization: `Bearer ${tokens.get(member) ?? ""}` },
      });
      await response.text();
      return response.status;
    },
  };
}

test.each<
  [string, { codesFrom: number; jo: (shared: string, own: string) => string[]; heldWhileOut: number }]
>([
  ["the key alone", { codesFrom: 0, jo: (shared) => [shared], heldWhileOut: 0 }],
  ["the key and one of jo's own", { codesFrom: 2, jo: (shared, own) => [shared, own], heldWhileOut: 1 }],
])(
  "jo asks for %s; ann's purchase of the key starts during jo's budget check: jo joins it, served from the cache, its share of jo's hold settled at once",
  async (_name, { codesFrom, jo, heldWhileOut }) => {
    const [shared = "", own = ""] = codes.slice(codesFrom, codesFrom + 2);
    const charged = totalDataRequests(await service.stats());
    const t = await team();
    const joAsked = t.ask("jo@example.com", jo(shared, own));
    await t.joChecking;
    // jo found no purchase of the key under way; ann's starts now, before jo's check ends.
    const annAsked = t.ask("ann@example.com", [shared]);
    await t.callOut;
    t.joMayGo();
    await t.joHeld;
    await nextTurn();
    const at = new Date(service.now());
    expect((await t.store.holds.heldBy("jo@example.com", "energy_price", at)).get(dataset) ?? 0).toBe(
      heldWhileOut,
    );

    t.answer();
    expect(await Promise.all([annAsked, joAsked])).toEqual([200, 200]);
    // The stop writes the rows of the answers served.
    await t.gateway.close();
    const sources = (member: string): string[] =>
      t.store.served
        .filter((row) => row.member === member)
        .map((row) => `${row.code}:${row.source}`)
        .sort();
    expect(sources("ann@example.com")).toEqual([`${shared}:purchase`]);
    expect(sources("jo@example.com")).toEqual(
      jo(shared, own)
        .map((code) => `${code}:${code === shared ? "cache" : "purchase"}`)
        .sort(),
    );
    const usage = await t.store.audit.usage(allowancePeriodAt(at, DEFAULT_RELEASE_BUSINESS_DAY));
    const ownCodes = jo(shared, own).length - 1;
    expect(usage.find((row) => row.member === "jo@example.com")).toMatchObject({
      purchased: ownCodes,
      fromCache: 1,
    });
    expect(usage.find((row) => row.member === "ann@example.com")).toMatchObject({
      purchased: 1,
      fromCache: 0,
    });
    // The report's purchases equal the service's charge: the key was bought once, for ann.
    expect(totalDataRequests(await service.stats()) - charged).toBe(1 + ownCodes);
    expect((await t.store.holds.heldBy("jo@example.com", "energy_price", at)).size).toBe(0);
  },
);
