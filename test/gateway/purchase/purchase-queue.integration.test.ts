// The purchase queue through a gateway, against the emulator: what members get when the
// service refuses a packed call for one member's dataset, when its answer is short of its
// catalog, and when a call gets no answer in time. The packing waits (and the while an outcome
// stands for its key) run on the test's clock, each request is known to have reached the queue
// before the clock lets the call go, and a call times out when the test says, so what happens is
// certain, not a matter of the machine's speed.
import { classifyHttpFailure } from "../../../src/core/http/http-failure";
import { serviceState } from "../../../src/core/schedule";
import type { RunningGateway } from "../../../src/gateway/gateway-app";
import { until } from "../../support/until";
import type { AnswerCache } from "../../../src/gateway/store/gateway-store";
import { manualPackingTimers, type ManualPackingTimers } from "../support/manual-packing-timers";
import { memoryStore, type MemoryStore } from "../support/memory-store";
import {
  catalogOf,
  startService,
  startTeamGateway,
  latestDate,
  totalDataRequests,
  type CatalogRecord,
  type DatedRecord,
  type ServiceUnderTest,
  upstreamOf,
  memberToken,
} from "../support/team";

const PASSWORD = "correct horse battery staple";
const IDLE_WINDOW_MS = 50;
/** Far beyond what a test moves the packing clock to send a call: no call leaves for its longest wait. */
const LONGEST_WAIT_MS = 120_000;

let service: ServiceUnderTest;
let store: MemoryStore;
let packing: ManualPackingTimers;
let gateway: RunningGateway | undefined;
let records: CatalogRecord[];
/** Per code: told when the store's look at a key of it has answered. */
const lookWatchers = new Map<string, () => void>();

beforeEach(async () => {
  service = await startService();
  records = await catalogOf(service, "energy_price");
  store = memoryStore();
  for (const member of ["ann@example.com", "bob@example.com"])
    await store.members.save(member, PASSWORD, { budget: null, admin: false });
  packing = manualPackingTimers(0);
});

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
  await service.close();
});

/**
 * A gateway on the test's packing clock whose store tells the test of each look at a key;
 * `serviceFetch` stands between it and the service.
 */
async function startGatewayOnTestClock(
  serviceFetch: typeof fetch = fetch,
  timeoutSignal?: (ms: number) => AbortSignal,
): Promise<RunningGateway> {
  const answers: AnswerCache = {
    get: async (keys) => {
      const found = await store.answers.get(keys);
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
  gateway = await startTeamGateway(
    service,
    { ...store, answers },
    {
      packingWindowMs: IDLE_WINDOW_MS,
      packingSoloWindowMs: IDLE_WINDOW_MS,
      packingMaxWaitMs: LONGEST_WAIT_MS,
      later: packing.later,
      elapsed: packing.now,
      upstream: {
        ...upstreamOf(service),
        fetch: serviceFetch,
        ...(timeoutSignal === undefined ? {} : { timeoutSignal }),
      },
    },
  );
  return gateway;
}

/**
 * Resolves once the store has answered a look at a key of `code` and the request has gone on
 * from there to the queue: the route's steps after the look are promise turns, all run before
 * an immediate.
 */
function lookAnswered(code: string): Promise<void> {
  return new Promise<void>((resolve) => lookWatchers.set(code, resolve)).then(
    () => new Promise((resolve) => setImmediate(resolve)),
  );
}

function tokenOf(url: string, username: string): Promise<string> {
  return memberToken(url, { username, password: PASSWORD });
}

async function ask(
  url: string,
  token: string,
  path: string,
): Promise<{ status: number; body: { message?: string; dataset?: string } | DatedRecord[] }> {
  const response = await fetch(`${url}/api/energy_price/v1/export/${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as { message?: string } };
}

test("one member's dataset out of allowance: its codes are refused naming it, another member's codes in the same call are bought", async () => {
  const exhausted = records[0] as CatalogRecord;
  const other = records.find((record) => record.coverage !== exhausted.coverage) as CatalogRecord;
  await service.admin("POST", "quota", {
    product: "energy_price",
    dataset: exhausted.coverage,
    remaining: 0,
  });
  const running = await startGatewayOnTestClock();
  const [ann, bob] = [
    await tokenOf(running.url, "ann@example.com"),
    await tokenOf(running.url, "bob@example.com"),
  ];
  const annAtQueue = lookAnswered(exhausted.code);
  const annAsks = ask(running.url, ann, `series/${exhausted.code}`);
  await annAtQueue;
  const bobAtQueue = lookAnswered(other.code);
  const bobAsks = ask(running.url, bob, `series/${other.code}`);
  await bobAtQueue;
  // Both keys wait in one part-filled call; the idle window sends it.
  packing.advance(IDLE_WINDOW_MS);
  const [annAnswer, bobAnswer] = await Promise.all([annAsks, bobAsks]);
  expect(annAnswer).toEqual({
    status: 403,
    body: {
      message: `Quota limit reached for dataset '${exhausted.coverage}': the service refused the gateway's Series Values call (HTTP 403).`,
      dataset: exhausted.coverage,
    },
  });
  expect(bobAnswer.status).toBe(200);
  expect((bobAnswer.body as Array<{ code: string }>).map((record) => record.code)).toEqual([other.code]);
  // The refused call cost nothing; the one sent again is Bob's, charged and audited.
  const stats = await service.stats();
  expect(stats.calls.series_values).toBe(2);
  expect(store.purchases.flatMap((purchase) => purchase.codes)).toEqual([
    expect.objectContaining({ code: other.code, dataset: other.coverage, member: "bob@example.com" }),
  ]);
});

test("an answer short of the catalog is served, bought again once its 15 minutes are over, and the whole one kept", async () => {
  const entry = records[5] as CatalogRecord & { last_available_final: string };
  let short = true;
  // The service's data lags its catalog once (a release still being published): its first
  // answer lacks the latest final month.
  const running = await startGatewayOnTestClock(async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input).includes("/export/series/") || !short) return response;
    short = false;
    const answered = (await response.json()) as DatedRecord[];
    for (const record of answered) {
      const latest = latestDate(record);
      record.series_final_values = record.series_final_values.filter((point) => point.date !== latest);
    }
    return new Response(JSON.stringify(answered), { status: 200, headers: response.headers });
  });
  const [ann, bob] = [
    await tokenOf(running.url, "ann@example.com"),
    await tokenOf(running.url, "bob@example.com"),
  ];
  const values = async (token: string): Promise<string> => {
    const atQueue = lookAnswered(entry.code);
    const asked = ask(running.url, token, `series/${entry.code}`);
    // A request served from the gateway's memory never reaches the store, nor the queue.
    if ((await Promise.race([atQueue, asked])) === undefined) packing.advance(IDLE_WINDOW_MS);
    const answer = await asked;
    expect(answer.status).toBe(200);
    return latestDate((answer.body as DatedRecord[])[0]);
  };
  const calls = async (): Promise<number | undefined> => (await service.stats()).calls.series_values;
  const previousMonth = `${entry.last_available_final.slice(0, 4)}-09-01`;
  expect(entry.last_available_final).toBe("2026-10-01");

  expect(await values(ann)).toBe(previousMonth);
  // Within the 15 minutes another member gets it too, without a purchase.
  packing.advance(4 * 60_000);
  expect(await values(bob)).toBe(previousMonth);
  expect(await calls()).toBe(1);
  // Ann's engine asks again later: the gateway buys once more, and keeps the whole answer.
  packing.advance(60 * 60_000);
  expect(await values(ann)).toBe(entry.last_available_final);
  expect(await calls()).toBe(2);
  // Kept as current: served from the gateway's memory, without a look at the store or a call.
  const kept = await ask(running.url, bob, `series/${entry.code}`);
  expect(latestDate((kept.body as DatedRecord[])[0])).toBe(entry.last_available_final);
  expect(await calls()).toBe(2);
  expect(store.purchases.flatMap((purchase) => purchase.codes.map((code) => code.member))).toEqual([
    "ann@example.com",
    "ann@example.com",
  ]);
});

test("a History call that gets no answer in time reaches members as a timeout their engines take as perhaps charged, and is not bought again for five minutes", async () => {
  const code = (records[9] as CatalogRecord).code;
  /** The History call at the service, with how long the gateway waits for it and its timeout. */
  const history: Array<{ waitsMs: number; timeOut: () => void }> = [];
  const timeouts: Array<{ ms: number; controller: AbortController }> = [];
  const running = await startGatewayOnTestClock(
    async (input, init) => {
      if (!String(input).includes("/export/series_hist/")) return fetch(input, init);
      // The service answers, and charges; the answer never reaches the gateway.
      await fetch(input, { headers: init?.headers });
      const signal = init?.signal as AbortSignal;
      const { ms, controller } = timeouts.find((timeout) => timeout.controller.signal === signal) ?? {
        ms: Number.NaN,
        controller: new AbortController(),
      };
      history.push({
        waitsMs: ms,
        timeOut: () => controller.abort(new DOMException("The operation timed out.", "TimeoutError")),
      });
      return new Promise<Response>((_resolve, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason as Error)),
      );
    },
    (ms) => {
      const controller = new AbortController();
      timeouts.push({ ms, controller });
      return controller.signal;
    },
  );
  const [ann, bob] = [
    await tokenOf(running.url, "ann@example.com"),
    await tokenOf(running.url, "bob@example.com"),
  ];
  const charged = async (): Promise<number> => totalDataRequests(await service.stats());
  const before = await charged();

  const atQueue = lookAnswered(code);
  const annAsks = ask(running.url, ann, `series_hist/${code}`);
  await atQueue;
  packing.advance(IDLE_WINDOW_MS);
  const [call] = await until(
    () => history,
    (calls) => calls.length === 1,
    "the History call at the service",
  );
  expect(call?.waitsMs).toBe(300_000);
  call?.timeOut();
  const annAnswer = await annAsks;
  const message = `The service did not answer the gateway's Series Values History call within 300 s. The service may have charged it: the gateway does not buy its codes again for 5 minutes.`;
  expect(annAnswer).toEqual({ status: 504, body: { message } });
  // Ann's engine takes it as a timeout: not sent again at once, its codes perhaps charged.
  const now = service.now();
  const error = classifyHttpFailure(
    { status: annAnswer.status, bodyText: JSON.stringify(annAnswer.body), retryAfterMs: null },
    { operation: "series_hist", now, serviceState: serviceState(now, 3) },
  );
  expect(error.kind).toBe("timeout");

  // Bob asks within the five minutes: the same timeout, and no call.
  packing.advance(60_000);
  const bobAnswer = await fetch(`${running.url}/api/energy_price/v1/export/series_hist/${code}`, {
    headers: { authorization: `Bearer ${bob}` },
  });
  expect(bobAnswer.status).toBe(504);
  expect(bobAnswer.headers.get("retry-after")).toBe("240");
  expect(history).toHaveLength(1);
  // The service charged the call the gateway got no answer to; no audit row says so.
  expect(await charged()).toBe(before + 1);
  expect(store.purchases).toEqual([]);
});
