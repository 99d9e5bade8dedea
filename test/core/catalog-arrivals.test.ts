import { CatalogArrivals, WAKE_CHUNK } from "../../src/core/catalog-arrivals";
import type { SeriesInfo } from "../../src/core/model";

/** A load the test settles by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const info = (code: string): SeriesInfo => ({ code }) as SeriesInfo;

/** Codes "known" to the catalog so far (a product's load adds its codes). */
function setup(): {
  known: Map<string, SeriesInfo>;
  arrivals: CatalogArrivals<"live" | "sandbox">;
  turns: () => number;
} {
  const known = new Map<string, SeriesInfo>();
  let turns = 0;
  const arrivals = new CatalogArrivals<"live" | "sandbox">(
    // The sandbox's catalog holds the live codes with an "s:" in front (a distinct record).
    (code, scope) => (scope === "live" ? known.get(code) : known.get(`s:${code}`)),
    async () => {
      turns += 1;
      await new Promise((resolve) => setImmediate(resolve));
    },
  );
  return { known, arrivals, turns: () => turns };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

test("a waiter gets its record when the load holding it settles, before the other loads", async () => {
  const { known, arrivals } = setup();
  const energy = deferred();
  const commodity = deferred();
  const start = jest.fn(() => [energy.promise, commodity.promise]);
  const { found } = arrivals.wait("1-1-1", "live", start);
  let result: SeriesInfo | undefined | "pending" = "pending";
  void found.then((value) => (result = value));
  known.set("1-1-1", info("1-1-1"));
  energy.resolve();
  await flush();
  expect(result).toEqual(info("1-1-1"));
  commodity.resolve();
});

test("a code no load holds is answered undefined once every load has settled, failures included", async () => {
  const { arrivals } = setup();
  const energy = deferred();
  const commodity = deferred();
  const { found, settled } = arrivals.wait("9-9-9", "live", () => [energy.promise, commodity.promise]);
  let result: SeriesInfo | undefined | "pending" = "pending";
  void found.then((value) => (result = value));
  energy.resolve();
  await flush();
  expect(result).toBe("pending");
  commodity.reject(new Error("Series Info failed"));
  await flush();
  expect(result).toBeUndefined();
  expect((await settled).map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
});

test("waiters during a round share its loads; a question after it settles starts loads again", async () => {
  const { known, arrivals } = setup();
  const load = deferred();
  const start = jest.fn(() => [load.promise]);
  const first = arrivals.wait("1-1-1", "live", start);
  const second = arrivals.wait("2-2-2", "live", start);
  expect(start).toHaveBeenCalledTimes(1);
  known.set("1-1-1", info("1-1-1"));
  known.set("2-2-2", info("2-2-2"));
  load.resolve();
  await expect(first.found).resolves.toEqual(info("1-1-1"));
  await expect(second.found).resolves.toEqual(info("2-2-2"));
  await flush();
  const restart = jest.fn(() => [Promise.resolve()]);
  const later = arrivals.wait("3-3-3", "live", restart);
  expect(restart).toHaveBeenCalledTimes(1);
  await expect(later.found).resolves.toBeUndefined();
  expect(start).toHaveBeenCalledTimes(1);
});

test("many waiters are woken a chunk at a time, with a turn of the event loop between chunks", async () => {
  const { known, arrivals, turns } = setup();
  const load = deferred();
  const count = WAKE_CHUNK * 2 + 10;
  const founds = Array.from({ length: count }, (_, index) => {
    const code = `${index}-1-1`;
    known.set(code, info(code));
    return arrivals.wait(code, "live", () => [load.promise]).found;
  });
  let woken = 0;
  for (const found of founds) void found.then(() => (woken += 1));
  load.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  // The first chunk is woken, then the loop gets its turn before the rest.
  expect(woken).toBe(WAKE_CHUNK);
  await Promise.all(founds);
  expect(woken).toBe(count);
  expect(turns()).toBeGreaterThanOrEqual(2);
});

test("rounds are kept per environment: a cell asking after a switch waits on its own loads", async () => {
  const { known, arrivals } = setup();
  const live = deferred();
  const sandbox = deferred();
  const startLive = jest.fn(() => [live.promise]);
  const startSandbox = jest.fn(() => [sandbox.promise]);
  const inLive = arrivals.wait("1-1-1", "live", startLive).found;
  const inSandbox = arrivals.wait("1-1-1", "sandbox", startSandbox).found;
  expect(startLive).toHaveBeenCalledTimes(1);
  expect(startSandbox).toHaveBeenCalledTimes(1);
  known.set("1-1-1", info("1-1-1"));
  live.resolve();
  await expect(inLive).resolves.toEqual(info("1-1-1"));
  let sandboxResult: SeriesInfo | undefined | "pending" = "pending";
  void inSandbox.then((value) => (sandboxResult = value));
  await flush();
  // The live catalog's arrival answers no sandbox cell.
  expect(sandboxResult).toBe("pending");
  known.set("s:1-1-1", info("sandbox 1-1-1"));
  sandbox.resolve();
  await expect(inSandbox).resolves.toEqual(info("sandbox 1-1-1"));
});

test("several cells waiting for one code all get it", async () => {
  const { known, arrivals } = setup();
  const load = deferred();
  const founds = [1, 2, 3].map(() => arrivals.wait("1-2-3", "live", () => [load.promise]).found);
  known.set("1-2-3", info("1-2-3"));
  load.resolve();
  await expect(Promise.all(founds)).resolves.toEqual([info("1-2-3"), info("1-2-3"), info("1-2-3")]);
});
