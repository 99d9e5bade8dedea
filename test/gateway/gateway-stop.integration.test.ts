// The gateway's stop while a purchase's call is out, against the emulator as the service: the
// call's data request is held until the test lets it go, and the stop's wait runs on a clock the
// test moves, so what is audited before the stop ends never depends on the machine's speed.
import { memoryStore, type MemoryStore } from "./support/memory-store";
import { manualPackingTimers, type ManualPackingTimers } from "./support/manual-packing-timers";
import {
  catalogOf,
  startService,
  startTeamGateway,
  totalDataRequests,
  type ServiceUnderTest,
  upstreamOf,
} from "./support/team";
import type { RunningGateway } from "../../src/gateway/gateway-app";
import { STOP_WAIT_MS } from "../../src/gateway/purchase/purchase-queue";
import type { Purchase } from "../../src/gateway/store/gateway-store";

const PASSWORD = "correct horse battery staple";

let service: ServiceUnderTest;
let codes: string[];
/** What a test left to end should it fail midway: its held call, then its gateway. */
const cleanUp: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  service = await startService();
  codes = (await catalogOf(service, "energy_price")).slice(40, 42).map((record) => record.code);
});
afterEach(async () => {
  for (const step of cleanUp.splice(0)) await step();
});
afterAll(async () => {
  await service.close();
});

interface Stopping {
  gateway: RunningGateway;
  store: MemoryStore;
  /** What happened, in order: the purchase audited, the gateway closed, a call reported cut off. */
  log: string[];
  /** Resolves once the member's data call reached the service's door (it waits there). */
  callHeld: Promise<void>;
  /** Lets the held call go on to the service, or ends it with the error. */
  letGo(error?: Error): void;
  /** Resolves once the stop waits for the purchases out. */
  stopWaits: Promise<void>;
  stopClock: ManualPackingTimers;
  /** The member's request, still out (its connection ends at the stop). */
  asked: Promise<unknown>;
}

/** A gateway whose member's purchase is out, its call held before the service. */
async function purchaseOut(): Promise<Stopping> {
  const store = memoryStore();
  await store.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
  const log: string[] = [];
  const audit = {
    ...store.audit,
    recordPurchase: async (purchase: Purchase) => {
      log.push(`audited ${purchase.codes.map((code) => code.code).join(",")}`);
      await store.audit.recordPurchase(purchase);
    },
  };
  let held!: () => void;
  const callHeld = new Promise<void>((resolve) => (held = resolve));
  let letGo!: (error?: Error) => void;
  const gone = new Promise<Error | undefined>((resolve) => (letGo = resolve));
  let waits!: () => void;
  const stopWaits = new Promise<void>((resolve) => (waits = resolve));
  const stopClock = manualPackingTimers(0);
  const gateway = await startTeamGateway(
    service,
    { ...store, audit },
    {
      upstream: {
        ...upstreamOf(service),
        fetch: async (input, init) => {
          if (/\/v1\/export\/series(_hist)?\//.test(String(input))) {
            held();
            const error = await gone;
            if (error !== undefined) throw error;
          }
          return fetch(input, init);
        },
      },
      // The packing waits run on real timers (none here: a lone member's call goes at once); the
      // stop's wait, on the test's clock.
      packingWindowMs: 0,
      packingSoloWindowMs: 0,
      later: (run, ms) => {
        // The queue's few-millisecond looks on real timers; any longer wait on the test's clock.
        if (ms < 50) return void setTimeout(run, ms);
        if (ms === STOP_WAIT_MS) waits();
        stopClock.later(run, ms);
      },
      refusedAuditRows: {
        waiting: () => undefined,
        written: () => undefined,
        lost: (purchases) => purchases.forEach(() => log.push("lost")),
        cutOff: (calls) =>
          calls.forEach((call) => log.push(`cut off ${call.codes.map((code) => code.code).join(",")}`)),
      },
    },
  );
  const signIn = await fetch(`${gateway.url}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "ann@example.com", password: PASSWORD }),
  });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const asked = fetch(`${gateway.url}/api/energy_price/v1/export/series_hist/${codes.join(",")}`, {
    headers: { authorization: `Bearer ${token}` },
  }).then(
    (response) => response.text(),
    // The stop ends the member's connection.
    (error: unknown) => error,
  );
  cleanUp.push(
    async () => letGo(new TypeError("fetch failed")),
    () => gateway.close(),
  );
  return { gateway, store, log, callHeld, letGo, stopWaits, stopClock, asked };
}

test("a purchase out when the gateway stops is audited before the stop ends, and the service's charge is in the audit", async () => {
  const out = await purchaseOut();
  await out.callHeld;
  const before = totalDataRequests(await service.stats());
  const closed = out.gateway.close().then(() => void out.log.push("closed"));
  // The stop waits for the purchase (or, before this fix, has already ended).
  await Promise.race([closed, out.stopWaits]);
  out.letGo();
  await closed;
  await out.asked;
  expect(out.log).toEqual([`audited ${codes.join(",")}`, "closed"]);
  const charged = totalDataRequests(await service.stats()) - before;
  expect(charged).toBe(2);
  expect(out.store.purchases.flatMap((purchase) => purchase.codes.map((code) => code.member))).toEqual([
    "ann@example.com",
    "ann@example.com",
  ]);
});

test("a call still out when the stop's wait is over is reported as cut off, and the stop ends", async () => {
  const out = await purchaseOut();
  await out.callHeld;
  const closed = out.gateway.close().then(() => void out.log.push("closed"));
  await Promise.race([closed, out.stopWaits]);
  out.stopClock.advance(STOP_WAIT_MS);
  await closed;
  expect(out.log).toEqual([`cut off ${codes.join(",")}`, "closed"]);
  expect(out.store.purchases).toEqual([]);
  // The call ends without reaching the service.
  out.letGo(new TypeError("fetch failed"));
  await out.asked;
});
