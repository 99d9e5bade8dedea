// The gateway's copy of each product's Series Info against a scripted service and a saved copy
// the test controls: when it reads, what it serves while the service is down (also after a
// restart), and what it saves.
import {
  CatalogUnavailable,
  GatewayCatalog,
  type GatewayCatalogSettings,
} from "../../../src/gateway/catalog/gateway-catalog";
import type { CatalogCopy } from "../../../src/gateway/store/gateway-store";
import { Upstream, type UpstreamAnswer } from "../../../src/gateway/upstream/upstream-client";

const MINUTE = 60_000;
const catalogBody = (updatedAt: string): string =>
  JSON.stringify([
    { code: "68520-8-1", coverage: "Germany", updated_at: updatedAt, last_available_final: "2026-10" },
  ]);
const ok = (body: string): UpstreamAnswer => ({
  status: 200,
  body,
  contentType: "application/json",
  retryAfter: null,
});
const down: UpstreamAnswer = {
  status: 503,
  body: JSON.stringify({ message: "The service is down for maintenance: it answered HTTP 503." }),
  contentType: "application/json",
  retryAfter: "600",
};

/** A service whose Series Info answers the test queues; a queued promise holds the answer. */
function scriptedService() {
  const answers: Array<UpstreamAnswer | Promise<UpstreamAnswer>> = [];
  let calls = 0;
  return {
    answers,
    calls: () => calls,
    get: async () => {
      calls += 1;
      const next = answers.shift();
      if (next === undefined) throw new Error("No scripted Series Info answer");
      return next;
    },
  };
}

/** The database's copies; `refuseNext` makes saves fail, `holdReads` holds reads until released. */
function savedCopies() {
  const copies = new Map<string, CatalogCopy>();
  let refuse = 0;
  let puts = 0;
  const heldReads: Array<() => void> = [];
  let holding = false;
  return {
    copies,
    refuseNext: (count: number) => void (refuse = count),
    puts: () => puts,
    holdReads: () => void (holding = true),
    heldReads,
    get: async (product: string) => {
      if (holding) await new Promise<void>((resolve) => heldReads.push(resolve));
      return copies.get(product) ?? null;
    },
    readAt: async (product: string) => copies.get(product)?.readAt ?? null,
    put: async (product: string, copy: CatalogCopy) => {
      puts += 1;
      if (refuse > 0) {
        refuse -= 1;
        throw new Error("the database refused the row");
      }
      const kept = copies.get(product);
      if (kept !== undefined && kept.readAt > copy.readAt) return false;
      copies.set(product, copy);
      return true;
    },
  };
}

let now = Date.parse("2026-11-15T12:00:00Z");
let service: ReturnType<typeof scriptedService>;
let saved: ReturnType<typeof savedCopies>;

function catalog(): GatewayCatalog {
  const settings: GatewayCatalogSettings = {
    upstream: service,
    saved,
    now: () => now,
    maxAgeMs: 5 * MINUTE,
    productPath: (product) => `/${product}`,
  };
  return new GatewayCatalog(settings);
}

beforeEach(() => {
  now = Date.parse("2026-11-15T12:00:00Z");
  service = scriptedService();
  saved = savedCopies();
});

test("started while the service is down, it serves the copy saved before, to every request that came meanwhile", async () => {
  const before = catalogBody("2026-11-10");
  saved.copies.set("energy_price", { body: before, readAt: new Date(now - 3 * 60 * MINUTE) });
  let answer!: (reply: UpstreamAnswer) => void;
  service.answers.push(new Promise((resolve) => (answer = resolve)));
  saved.holdReads();
  const subject = catalog();
  const requests = [subject.get("energy_price"), subject.get("energy_price")];
  answer(down);
  // One more request while the saved copy is being read from the database.
  for (let turn = 0; turn < 20 && saved.heldReads.length === 0; turn += 1) await Promise.resolve();
  expect(saved.heldReads).toHaveLength(1);
  requests.push(subject.get("energy_price"));
  saved.heldReads.shift()?.();
  const copies = await Promise.all(requests);
  for (const copy of copies) {
    expect(copy.body).toBe(before);
    expect(copy.byCode.get("68520-8-1")?.valuesFingerprint).toBe("2026-11-10|2026-10");
  }
  expect(service.calls()).toBe(1);
  // Within the minute after the failure the copy is served without asking the service.
  now += 30_000;
  expect((await subject.get("energy_price")).body).toBe(before);
  expect(service.calls()).toBe(1);
  // Once the service is back, the next request after the minute reads the new catalog.
  const after = catalogBody("2026-11-15");
  service.answers.push(ok(after));
  now += 31_000;
  expect((await subject.get("energy_price")).body).toBe(after);
  expect(saved.copies.get("energy_price")?.body).toBe(after);
});

test("with no copy at all, the refusal is told again for a minute without asking the service, its Retry-After counting down", async () => {
  service.answers.push(down);
  const subject = catalog();
  const refusal = async (): Promise<CatalogUnavailable> => {
    const failure = await subject.get("energy_price").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CatalogUnavailable);
    return failure as CatalogUnavailable;
  };
  expect((await refusal()).answer.retryAfter).toBe("600");
  now += 20_000;
  expect((await refusal()).answer).toEqual({ ...down, retryAfter: "580" });
  expect(service.calls()).toBe(1);
  service.answers.push(down);
  now += 41_000;
  expect((await refusal()).answer.retryAfter).toBe("600");
  expect(service.calls()).toBe(2);
});

test("a read held back for downtime (not sent) waits only for the rest of the hold, not a minute of its own", async () => {
  const before = catalogBody("2026-11-10");
  saved.copies.set("energy_price", { body: before, readAt: new Date(now - 3 * 60 * MINUTE) });
  // The service said it is down 59 s ago: the gateway's read is answered without being sent.
  service.answers.push({ ...down, heldSince: now - 59_000 });
  const subject = catalog();
  expect((await subject.get("energy_price")).body).toBe(before);
  // The hold is over a second later: the next request reads the catalog (the release came out).
  const after = catalogBody("2026-12-03");
  service.answers.push(ok(after));
  now += 1_000;
  expect((await subject.get("energy_price")).body).toBe(after);
  expect(service.calls()).toBe(2);
});

test("a copy is saved when it differs from the one saved last; a save the database refused is made at the next read", async () => {
  const first = catalogBody("2026-11-10");
  const second = catalogBody("2026-11-15");
  service.answers.push(ok(first), ok(first), ok(second), ok(second), ok(second));
  const subject = catalog();
  saved.refuseNext(1);
  expect((await subject.get("energy_price")).body).toBe(first);
  expect(saved.copies.has("energy_price")).toBe(false);
  const reads: Array<[string, number]> = [];
  for (let read = 0; read < 4; read += 1) {
    now += 6 * MINUTE;
    await subject.get("energy_price");
    reads.push([saved.copies.get("energy_price")?.body === second ? "second" : "first", saved.puts()]);
  }
  // Saves: the refused one, the same copy again, none while it stays, the new copy, none again.
  expect(reads).toEqual([
    ["first", 2],
    ["second", 3],
    ["second", 3],
    ["second", 3],
  ]);
});

/** 3 Dec 2026, the 3rd business day: release day begins at 06:00 US Central (CST, UTC-6). */
const at = (centralTime: string): number => Date.parse(`2026-12-03T${centralTime}-06:00`);

// Members learn from a copy's read time whether the release is out: a read sent before 06:00
// carries its sending time, however late its answer (or the sign-in before it) comes.
test.each<[string, string, Array<[string, () => Response]>]>([
  [
    "signed in first",
    "05:59:58.500",
    [
      ["05:59:59", () => Response.json({ access_token: "t1" })],
      ["06:00:02", () => Response.json(JSON.parse(catalogBody("2026-12-03")))],
    ],
  ],
  [
    "sent again after its token was refused",
    "05:59:57",
    [
      ["05:59:58", () => Response.json({ access_token: "t1" })],
      ["05:59:58.500", () => Response.json({ message: "Invalid access token" }, { status: 401 })],
      ["05:59:59", () => Response.json({ access_token: "t2" })],
      ["06:00:02", () => Response.json(JSON.parse(catalogBody("2026-12-03")))],
    ],
  ],
])(
  "a Series Info read (%s) sent at 05:59:59 and answered at 06:00:02 is read at 05:59:59",
  async (_case, start, steps) => {
    now = at(start);
    // Each call is answered at the step's time: the clock moves while the answer is on its way.
    const fetchLike = async () => {
      const step = steps.shift();
      if (step === undefined) throw new Error("No scripted answer");
      now = at(step[0]);
      return step[1]();
    };
    const upstream = new Upstream({
      base: "https://service.example/api",
      auth: "https://service.example/auth",
      credentials: { username: "developer@company.example", password: "s3cret" },
      fetch: fetchLike as typeof fetch,
      now: () => now,
    });
    const subject = new GatewayCatalog({
      upstream,
      saved,
      now: () => now,
      maxAgeMs: 5 * MINUTE,
      productPath: (product) => `/${product}`,
    });
    const copy = await subject.get("energy_price");
    expect(steps).toEqual([]);
    expect(now).toBe(at("06:00:02"));
    expect(new Date(copy.readAt).toISOString()).toBe(new Date(at("05:59:59")).toISOString());
    expect(saved.copies.get("energy_price")?.readAt.toISOString()).toBe(
      new Date(at("05:59:59")).toISOString(),
    );
  },
);

test("an answer that does not say when its call was sent is read at the time the read began", async () => {
  now = at("05:59:59");
  let answer!: (reply: UpstreamAnswer) => void;
  service.answers.push(new Promise((resolve) => (answer = resolve)));
  const reading = catalog().get("energy_price");
  now = at("06:00:02");
  answer(ok(catalogBody("2026-12-03")));
  expect((await reading).readAt).toBe(at("05:59:59"));
});

// Two instances on one database: a member whose engine read the catalog through the instance
// that read it last sends its read time with a data call; the instance with an older copy takes
// the saved one first, so it judges what it keeps against the catalog the member holds.
describe("a member holding a later catalog than this instance's copy", () => {
  const older = catalogBody("2026-11-10");
  const newer = catalogBody("2026-11-15");

  /** This instance read `older` a minute ago; another instance read and saved `newer` just now. */
  async function behindAnother(): Promise<{ subject: GatewayCatalog; newerReadAt: number }> {
    service.answers.push(ok(older));
    const subject = catalog();
    await subject.get("energy_price");
    now += MINUTE;
    const newerReadAt = now - 1_000;
    saved.copies.set("energy_price", { body: newer, readAt: new Date(newerReadAt) });
    return { subject, newerReadAt };
  }

  test.each<[string, (newerReadAt: number) => number | undefined, string]>([
    ["says nothing: this instance's copy", () => undefined, older],
    ["holds the one this instance read: this instance's copy", () => now - 2 * MINUTE, older],
    ["holds the other instance's: the saved copy", (newerReadAt) => newerReadAt, newer],
    ["says a time ahead of the clock: taken as now, the saved copy", () => now + 60 * MINUTE, newer],
  ])("%s", async (_case, holds, body) => {
    const { subject, newerReadAt } = await behindAnother();
    expect((await subject.get("energy_price", holds(newerReadAt))).body).toBe(body);
    // No call to the service: the copy came from the database, or no copy was needed.
    expect(service.calls()).toBe(1);
  });

  test("each time is looked up once, and the saved copy is kept from then on", async () => {
    const { subject, newerReadAt } = await behindAnother();
    let reads = 0;
    const get = saved.get;
    saved.get = async (product) => {
      reads += 1;
      return get(product);
    };
    expect((await subject.get("energy_price", newerReadAt)).body).toBe(newer);
    expect((await subject.get("energy_price", newerReadAt)).body).toBe(newer);
    expect((await subject.get("energy_price")).body).toBe(newer);
    expect(reads).toBe(1);
  });

  // A member can send a new time with every call: each is looked up by the saved copy's time
  // alone; its body (megabytes) is read only when it is later than this instance's copy.
  test("a new time with every call reads the saved copy's body only when it is the later one", async () => {
    service.answers.push(ok(older));
    const subject = catalog();
    await subject.get("energy_price");
    saved.copies.set("energy_price", { body: older, readAt: new Date(now - MINUTE) });
    let bodies = 0;
    let times = 0;
    const get = saved.get;
    const readAt = saved.readAt;
    saved.get = async (product) => {
      bodies += 1;
      return get(product);
    };
    saved.readAt = async (product) => {
      times += 1;
      return readAt(product);
    };
    for (let call = 0; call < 50; call += 1) {
      now += 1_000;
      expect((await subject.get("energy_price", now)).body).toBe(older);
    }
    expect(bodies).toBe(0);
    expect(times).toBe(50);
  });

  test("a saved copy stamped ahead of this instance's clock is taken as read now, and its body once", async () => {
    const { subject } = await behindAnother();
    saved.copies.set("energy_price", { body: newer, readAt: new Date(now + 60 * MINUTE) });
    let bodies = 0;
    const get = saved.get;
    saved.get = async (product) => {
      bodies += 1;
      return get(product);
    };
    expect((await subject.get("energy_price", now)).readAt).toBe(now);
    // Members holding that copy (its time ahead) ask with new times: the body is not read again.
    for (let call = 0; call < 5; call += 1) {
      now += 1_000;
      expect((await subject.get("energy_price", now + 60 * MINUTE)).body).toBe(newer);
    }
    expect(bodies).toBe(1);
  });

  test("a database that cannot be read leaves this instance's copy", async () => {
    const { subject, newerReadAt } = await behindAnother();
    saved.get = async () => {
      throw new Error("the database is gone");
    };
    expect((await subject.get("energy_price", newerReadAt)).body).toBe(older);
  });
});

// A purchase's answer naming a series the copy may not list, or a 503, marks the copy stale
// while a read is out: that read may bring the catalog from before what the mark is about, so
// the mark stays and the next request reads again.
test("a stale mark made while a read is out is kept for the next request", async () => {
  let answer!: (reply: UpstreamAnswer) => void;
  service.answers.push(new Promise((resolve) => (answer = resolve)));
  const subject = catalog();
  const first = subject.get("energy_price");
  for (let turn = 0; turn < 20 && service.calls() === 0; turn += 1) await Promise.resolve();
  expect(service.calls()).toBe(1);
  subject.markStale("energy_price");
  answer(ok(catalogBody("2026-11-10")));
  await first;
  service.answers.push(ok(catalogBody("2026-11-15")));
  expect((await subject.get("energy_price")).body).toBe(catalogBody("2026-11-15"));
  expect(service.calls()).toBe(2);
  // Read and not marked since: the copy serves until it is old.
  expect((await subject.get("energy_price")).body).toBe(catalogBody("2026-11-15"));
  expect(service.calls()).toBe(2);
});

test("a mark of another product while this product's read is out leaves this product's read to clear its own", async () => {
  service.answers.push(ok(catalogBody("2026-11-10")));
  const subject = catalog();
  await subject.get("energy_price");
  subject.markStale("energy_price");
  let answer!: (reply: UpstreamAnswer) => void;
  service.answers.push(new Promise((resolve) => (answer = resolve)));
  const reading = subject.get("energy_price");
  for (let turn = 0; turn < 20 && service.calls() === 1; turn += 1) await Promise.resolve();
  expect(service.calls()).toBe(2);
  subject.markStale("commodity_price");
  answer(ok(catalogBody("2026-11-15")));
  await reading;
  expect((await subject.get("energy_price")).body).toBe(catalogBody("2026-11-15"));
  expect(service.calls()).toBe(2);
});

describe("a catalog read under way, a member's catch-up, and the saved copies", () => {
  test("a read sent before another instance's copy was taken leaves that copy in place", async () => {
    service.answers.push(ok(catalogBody("2026-11-10")));
    const subject = catalog();
    await subject.get("energy_price");
    // This instance's next read is sent (the copy is old), and held.
    now += 6 * MINUTE;
    let answer!: (reply: UpstreamAnswer) => void;
    service.answers.push(new Promise((resolve) => (answer = resolve)));
    const sentAt = now;
    const reading = subject.get("energy_price");
    for (let turn = 0; turn < 20 && service.calls() === 1; turn += 1) await Promise.resolve();
    // Another instance reads and saves a later catalog; a member holding it calls here.
    now += 1_000;
    saved.copies.set("energy_price", { body: catalogBody("2026-11-15"), readAt: new Date(now) });
    expect((await subject.get("energy_price", now)).body).toBe(catalogBody("2026-11-15"));
    // The read sent before it comes back with the older catalog: the later copy stays.
    answer({ ...ok(catalogBody("2026-11-10")), sentAt });
    expect((await reading).body).toBe(catalogBody("2026-11-15"));
    expect((await subject.get("energy_price")).body).toBe(catalogBody("2026-11-15"));
  });

  test("a lookup the database failed is made again at the member's next call", async () => {
    service.answers.push(ok(catalogBody("2026-11-10")));
    const subject = catalog();
    await subject.get("energy_price");
    now += MINUTE;
    saved.copies.set("energy_price", { body: catalogBody("2026-11-15"), readAt: new Date(now) });
    const readAt = saved.readAt;
    saved.readAt = async () => {
      throw new Error("the database is busy");
    };
    expect((await subject.get("energy_price", now)).body).toBe(catalogBody("2026-11-10"));
    saved.readAt = readAt;
    expect((await subject.get("energy_price", now)).body).toBe(catalogBody("2026-11-15"));
  });

  test("a save the database did not make (it holds a later copy) is tried again at the next read", async () => {
    saved.copies.set("energy_price", {
      body: catalogBody("2026-11-01"),
      readAt: new Date(now + 60 * MINUTE),
    });
    service.answers.push(ok(catalogBody("2026-11-10")), ok(catalogBody("2026-11-10")));
    const subject = catalog();
    await subject.get("energy_price");
    expect(saved.puts()).toBe(1);
    saved.copies.delete("energy_price");
    now += 6 * MINUTE;
    await subject.get("energy_price");
    expect(saved.puts()).toBe(2);
    expect(saved.copies.get("energy_price")?.body).toBe(catalogBody("2026-11-10"));
  });
});
