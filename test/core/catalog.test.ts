import {
  type AnnouncedDowntime,
  Catalog,
  type CatalogOptions,
  CATALOG_MAX_AGE_MS,
  CATALOG_MIN_CALL_INTERVAL_MS,
  CATALOG_MIN_CALL_INTERVAL_UNCACHED_MS,
  UNKNOWN_CODE_REFRESH_MS,
} from "../../src/core/catalog";
import { PcdError } from "../../src/core/errors";
import type { SeriesInfo } from "../../src/core/model";
import { MemoryStorage } from "../../src/core/storage";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

const START = Date.UTC(2026, 10, 20, 12);

function setup(storage = new MemoryStorage(), options: Partial<CatalogOptions> = {}) {
  const service = new FakeService();
  service.addSeries(seriesInfo({ code: "68520-8-1" }));
  service.addSeries(seriesInfo({ code: "91201-1-5", product: "commodity_price", coverage: "Polymers" }));
  const clock = { now: START };
  let changes = 0;
  const catalog = new Catalog({
    client: service,
    storage,
    now: () => clock.now,
    environment: () => "live",
    onChange: () => changes++,
    ...options,
  });
  const infoCalls = () => service.calls.filter((call) => call.operation === "series_info").length;
  return { service, clock, catalog, storage, infoCalls, changes: () => changes };
}

describe("Catalog.lookup", () => {
  test("an unknown code of any length is named within Excel's 255-character message", async () => {
    const { catalog } = setup();
    const code = `${"1".repeat(400)}-2-3`;
    const error: unknown = await catalog.lookup(code).catch((caught: unknown) => caught);
    if (!(error instanceof PcdError)) throw new Error("expected the lookup to fail with a PcdError");
    expect(error).toMatchObject({ kind: "not_found" });
    expect(error.message.length).toBeLessThanOrEqual(255);
    expect(error.message).toMatch(/^Unknown code '1{20,}…': it is not in your subscription's catalog/);
  });

  test("finds a code in any product, fetching each catalog once", async () => {
    const { catalog, infoCalls } = setup();
    expect((await catalog.lookup("91201-1-5")).product).toBe("commodity_price");
    expect((await catalog.lookup(" 68520-8-1 ")).coverage).toBe("Germany");
    expect(infoCalls()).toBe(3);
  });

  test("a code resolves once its own product's catalog is in, without waiting for the others", async () => {
    const { catalog, service } = setup();
    let answerIndustry!: () => void;
    const industryHeld = new Promise<void>((resolve) => (answerIndustry = resolve));
    const seriesInfoOf = service.seriesInfo.bind(service);
    service.seriesInfo = async (environment, product) => {
      if (product === "industry_economics") await industryHeld;
      return seriesInfoOf(environment, product);
    };
    await expect(catalog.lookup("68520-8-1")).resolves.toMatchObject({ product: "energy_price" });
    // An unknown code still waits for every catalog before it is called unknown.
    let settled = false;
    const unknown = catalog.lookup("1-2-3").finally(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    answerIndustry();
    await expect(unknown).rejects.toMatchObject({ kind: "not_found" });
  });

  // A catalog that was never read cannot vouch that a code is unknown: its own failure is
  // the cell's answer, whatever kind it is (a row per kind; the passing ones were already so).
  test.each([
    ["auth", "The service refused the access token for Series Info (HTTP 403): sign in again."],
    ["not_found", "The service found nothing at the Series Info address (HTTP 404)."],
    ["protocol", "The Series Info answer was not the documented JSON."],
    ["server", "The service failed (HTTP 500)."],
  ] as const)(
    "a Series Info failure of kind %s on a never-read catalog is the lookup's error, not 'unknown code'",
    async (kind, message) => {
      const { catalog, service } = setup();
      const failure = new PcdError(kind, message);
      service.failWith((call) =>
        call.operation === "series_info" && call.product === "energy_price" ? failure : undefined,
      );
      await expect(catalog.lookup("1-2-3")).rejects.toBe(failure);
      // A code of a product that did load is still found.
      expect((await catalog.lookup("91201-1-5")).product).toBe("commodity_price");
    },
  );

  test("an unknown code fails locally and refreshes at most once per hour", async () => {
    const { catalog, clock, infoCalls, service } = setup();
    await expect(catalog.lookup("1-2-3")).rejects.toMatchObject({
      kind: "not_found",
      message:
        "Unknown code '1-2-3': it is not in your subscription's catalog (checked 2026-11-20 12:00 UTC)",
    });
    expect(infoCalls()).toBe(3);
    clock.now += UNKNOWN_CODE_REFRESH_MS - 1;
    await expect(catalog.lookup("1-2-3")).rejects.toMatchObject({ kind: "not_found" });
    expect(infoCalls()).toBe(3);
    // An hour later a new series may exist: the catalogs are asked again.
    service.addSeries(seriesInfo({ code: "1-2-3" }));
    clock.now += 1;
    expect((await catalog.lookup("1-2-3")).code).toBe("1-2-3");
    expect(infoCalls()).toBe(6);
    expect(service.dataCalls()).toHaveLength(0);
  });

  test.each(["abc", "68520-8", "68520_8_1", "1-2-3-4", ""])(
    "rejects the malformed code '%s' without any call",
    async (code) => {
      const { catalog, infoCalls } = setup();
      await expect(catalog.lookup(code)).rejects.toMatchObject({
        kind: "input",
        details: { argument: "code" },
      });
      expect(infoCalls()).toBe(0);
    },
  );

  test("reports why it could not check instead of calling a code unknown", async () => {
    const { catalog, service } = setup();
    service.failWith(() => new PcdError("not_signed_in", "Not signed in: sign in to PCD in the task pane."));
    await expect(catalog.lookup("68520-8-1")).rejects.toMatchObject({ kind: "not_signed_in" });
  });
});

describe("Catalog.all and Catalog.ensureEvery", () => {
  const ALL_PRODUCTS = ["energy_price", "commodity_price", "industry_economics"] as const;

  test.each<[string, readonly string[], string[] | "fails"]>([
    ["every product answers", [], ["68520-8-1", "91201-1-5"]],
    ["a product that cannot be read is left out", ["commodity_price"], ["68520-8-1"]],
    ["no product can be read", ALL_PRODUCTS, "fails"],
  ])("%s", async (_name, failing, expected) => {
    const { catalog, service, infoCalls } = setup();
    const seriesInfoOf = service.seriesInfo.bind(service);
    service.seriesInfo = async (environment, product) => {
      if (failing.includes(product)) throw new PcdError("network", `${product} cannot be reached`);
      return seriesInfoOf(environment, product);
    };
    if (expected === "fails") {
      await expect(catalog.ensureEvery()).rejects.toThrow("energy_price cannot be reached");
      await expect(catalog.all()).rejects.toThrow(/cannot be reached/);
      return;
    }
    await expect(catalog.ensureEvery()).resolves.toBeUndefined();
    const calls = infoCalls();
    expect((await catalog.all()).map((info) => info.code).sort()).toEqual(expected);
    // all() lists what ensureEvery read, without asking again (a failed product waits its interval).
    expect(infoCalls() - calls).toBe(0);
  });
});

describe("Catalog persistence and freshness", () => {
  test("a restarted catalog answers from storage without a call", async () => {
    const first = setup();
    await first.catalog.lookup("68520-8-1");
    const second = setup(first.storage);
    await second.catalog.load();
    expect(second.catalog.find("68520-8-1")?.code).toBe("68520-8-1");
    expect((await second.catalog.lookup("91201-1-5")).code).toBe("91201-1-5");
    expect(second.infoCalls()).toBe(0);
  });

  // A row per time the saved catalog says it was read: one later than now (a cache file from
  // elsewhere, a clock since set back), or a gateway's read after this engine's, is not
  // believed, however the file got it.
  test.each<[string, { fetchedAt: number; sourceReadAt?: number; awaitingRelease?: number }, number]>([
    ["an hour ago: current, no call", { fetchedAt: START - 3_600_000 }, 0],
    ["now: current, no call", { fetchedAt: START }, 0],
    ["a minute after now: read again", { fetchedAt: START + 60_000 }, 1],
    ["centuries after now: read again", { fetchedAt: 8.64e15 }, 1],
    [
      "an hour ago, by a gateway two hours ago: current, no call",
      { fetchedAt: START - 3_600_000, sourceReadAt: START - 7_200_000 },
      0,
    ],
    [
      "an hour ago, by a gateway a year after now: read again",
      { fetchedAt: START - 3_600_000, sourceReadAt: START + 365 * 86_400_000 },
      1,
    ],
    [
      "an hour ago, by a gateway after this engine's read: read again",
      { fetchedAt: START - 3_600_000, sourceReadAt: START - 1_800_000 },
      1,
    ],
    [
      "an hour ago, awaiting a release that starts after now: read again",
      { fetchedAt: START - 3_600_000, awaitingRelease: START + 86_400_000 },
      1,
    ],
  ])("a saved catalog read %s", async (_case, times, calls) => {
    const first = setup();
    await first.catalog.lookup("68520-8-1");
    const saved = (await first.storage.get("pcd:catalog:live:energy_price")) as { fetchedAt: number };
    await first.storage.set("pcd:catalog:live:energy_price", { ...saved, ...times });
    const second = setup(first.storage);
    await second.catalog.load();
    expect((await second.catalog.lookup("68520-8-1")).code).toBe("68520-8-1");
    expect(second.infoCalls()).toBe(calls);
  });

  test("a cached catalog is used when the service cannot be reached", async () => {
    const { catalog, clock, service } = setup();
    await catalog.list("energy_price");
    service.failWith(() => new PcdError("network", "No network"));
    clock.now += CATALOG_MAX_AGE_MS + 1;
    expect(await catalog.list("energy_price")).toHaveLength(1);
    expect(await catalog.refresh(["energy_price"])).toEqual(
      new Map([["energy_price", expect.any(PcdError)]]),
    );
    expect(catalog.find("68520-8-1")).toBeDefined();
  });

  test("an answer with no usable series never replaces a catalog that had some (a garbage answer is a failure)", async () => {
    const { catalog, clock, service, storage } = setup();
    await catalog.list("energy_price");
    // e.g. a broken service whose every record fails validation: the client hands over [].
    service.catalog.set("energy_price", []);
    const failures = await catalog.refresh(["energy_price"]);
    expect(failures.get("energy_price")).toMatchObject({
      kind: "protocol",
      message: expect.stringMatching(
        /Series Info of energy_price answered no usable series; the catalog of .* is kept/,
      ),
    });
    expect(catalog.find("68520-8-1")).toBeDefined();
    clock.now += CATALOG_MAX_AGE_MS + 1;
    expect(await catalog.list("energy_price")).toHaveLength(1);
    const stored = (await storage.get<{ series: unknown[] }>("pcd:catalog:live:energy_price"))!;
    expect(stored.series).toHaveLength(1);
  });

  test("a day-old catalog is not refetched during a maintenance window (the call could only fail)", async () => {
    const service = new FakeService();
    service.addSeries(seriesInfo({ code: "68520-8-1" }));
    const clock = { now: START };
    let maintenance = false;
    const catalog = new Catalog({
      client: service,
      storage: new MemoryStorage(),
      now: () => clock.now,
      environment: () => "live",
      announcedDowntime: () =>
        maintenance
          ? { reason: "maintenance", error: new PcdError("unavailable", "In maintenance") }
          : undefined,
    });
    const infoCalls = () => service.calls.filter((call) => call.operation === "series_info").length;
    await catalog.list("energy_price");
    clock.now += CATALOG_MAX_AGE_MS + 1;
    maintenance = true;
    expect((await catalog.lookup("68520-8-1")).code).toBe("68520-8-1");
    expect(await catalog.list("energy_price")).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(infoCalls()).toBe(1);
    maintenance = false;
    await catalog.list("energy_price");
    expect(infoCalls()).toBe(2);
  });

  test("a day-old catalog is refetched; onChange fires only when the content changed", async () => {
    const { catalog, clock, service, infoCalls, changes } = setup();
    await catalog.list("energy_price");
    expect(changes()).toBe(1);
    clock.now += CATALOG_MAX_AGE_MS;
    await catalog.list("energy_price");
    expect(infoCalls()).toBe(2);
    expect(changes()).toBe(1);
    service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11" });
    await catalog.refresh(["energy_price"]);
    expect(changes()).toBe(2);
    expect(catalog.find("68520-8-1")?.lastAvailableFinal).toBe("2026-11");
  });

  // What a catalog read again shows, and whether that is a release: [case, release, changes].
  test.each<[string, boolean, Array<[string, Partial<SeriesInfo>]>]>([
    [
      "every series a month on",
      true,
      [
        ["68520-8-1", { lastAvailableFinal: "2026-11" }],
        ["68520-8-2", { lastAvailableFinal: "2026-11" }],
      ],
    ],
    [
      "a late update: one series gets the month the other had",
      false,
      [["68520-8-2", { lastAvailableFinal: "2026-10" }]],
    ],
    ["a revision: updated_at alone", false, [["68520-8-1", { updatedAt: "2026-11-20" }]]],
    ["a new series of the latest month", false, [["new", { lastAvailableFinal: "2026-10" }]]],
  ])("%s: a release, %s", async (_name, release, changes) => {
    const service = new FakeService();
    service.addSeries(
      seriesInfo({ code: "68520-8-1" }),
      seriesInfo({ code: "68520-8-2", lastAvailableFinal: "2026-09" }),
    );
    const clock = { now: START };
    const releases: string[] = [];
    const catalog = new Catalog({
      client: service,
      storage: new MemoryStorage(),
      now: () => clock.now,
      environment: () => "live",
      onNewData: (product) => releases.push(product),
    });
    await catalog.list("energy_price");
    for (const [code, patch] of changes) {
      if (code === "new") service.addSeries(seriesInfo({ code: "68520-8-3", ...patch }));
      else service.updateSeries(code, patch);
    }
    clock.now += CATALOG_MAX_AGE_MS;
    await catalog.refresh(["energy_price"]);
    expect(releases).toEqual(release ? ["energy_price"] : []);
  });

  test("a catalog read before the latest release out is not current, even when the release is seen out at the same clock reading", async () => {
    const release = { out: START - 86_400_000 };
    const { catalog, clock } = setup(new MemoryStorage(), { latestReleaseOut: () => release.out });
    await catalog.list("energy_price");
    clock.now += 1_000;
    expect(catalog.isCurrent("energy_price")).toBe(true);
    // Another product's catalog answers on release day: the release is out from now on.
    release.out = clock.now;
    await catalog.list("commodity_price");
    expect(catalog.isCurrent("energy_price")).toBe(false);
    expect(catalog.isCurrent("commodity_price")).toBe(true);
  });

  test("clear forgets catalogs in memory and storage", async () => {
    const { catalog, storage } = setup();
    await catalog.list("energy_price");
    await catalog.clear();
    expect(catalog.find("68520-8-1")).toBeUndefined();
    expect(await storage.keys()).toEqual([]);
  });
});

// Whatever asks for a catalog, and however often, a product's Series Info is called a
// bounded number of times (docs/engine.md): a view that re-asks on every change event, or a
// cell in a retry loop, cannot flood the service. Only the user's own refresh always calls.
describe("Catalog call bounds", () => {
  const HOUR = 3_600_000;
  const down = (reason: AnnouncedDowntime["reason"]): AnnouncedDowntime => ({
    reason,
    error: new PcdError("unavailable", `The service is down for ${reason}.`),
  });

  function bounded() {
    const service = new FakeService();
    service.addSeries(seriesInfo({ code: "68520-8-1" }));
    const clock = { now: START };
    const state: { downtime: AnnouncedDowntime | undefined } = { downtime: undefined };
    const catalog = new Catalog({
      client: service,
      storage: new MemoryStorage(),
      now: () => clock.now,
      environment: () => "live",
      announcedDowntime: () => state.downtime,
    });
    const energyCalls = () =>
      service.calls.filter((call) => call.operation === "series_info" && call.product === "energy_price")
        .length;
    return { service, clock, catalog, state, energyCalls };
  }

  type Ask = (catalog: Catalog) => Promise<unknown>;
  const preview: Ask = (catalog) => catalog.refresh(["energy_price"], "preview");
  const user: Ask = (catalog) => catalog.refresh(["energy_price"], "user");
  const unknownCode: Ask = (catalog) => catalog.lookup("1-2-3");

  // A row per way of asking: asked every second for an hour, the calls it may make.
  test.each([
    [
      "the preview, service up, catalog cached",
      preview,
      { cached: true },
      HOUR / CATALOG_MIN_CALL_INTERVAL_MS,
    ],
    [
      "the preview, service failing, catalog cached",
      preview,
      { cached: true, failing: true },
      HOUR / CATALOG_MIN_CALL_INTERVAL_MS,
    ],
    [
      "an unknown code, service failing, no catalog",
      unknownCode,
      { failing: true },
      HOUR / CATALOG_MIN_CALL_INTERVAL_UNCACHED_MS,
    ],
    ["the preview in a maintenance", preview, { cached: true, downtime: down("maintenance") }, 0],
    ["an unknown code in a maintenance", unknownCode, { downtime: down("maintenance") }, 0],
    ["an unknown code on release day", unknownCode, { cached: true, downtime: down("release") }, 0],
    ["the preview worked out again on release day", preview, { cached: true, downtime: down("release") }, 0],
    [
      "the user's preview or refresh on release day (its probe)",
      user,
      { cached: true, downtime: down("release") },
      3_600,
    ],
  ] as const)(
    "%s: at most the bound's calls in an hour of asking every second",
    async (_name, ask, given, bound) => {
      const { catalog, clock, service, state, energyCalls } = bounded();
      // Read before the hour starts (a downtime begins after it): a day old when it does.
      if ("cached" in given) await catalog.list("energy_price");
      clock.now += CATALOG_MAX_AGE_MS;
      if ("downtime" in given) state.downtime = given.downtime;
      const before = energyCalls();
      if ("failing" in given)
        service.failWith(() => new PcdError("server", "The service failed (HTTP 500)."));
      for (let second = 0; second < 3_600; second++) {
        await ask(catalog).catch(() => undefined);
        clock.now += 1_000;
      }
      expect(energyCalls() - before).toBeLessThanOrEqual(bound);
      // A bound of zero means none; any other bound is met by calls that do go out.
      if (bound > 0) expect(energyCalls() - before).toBeGreaterThan(0);
    },
  );

  test("a release that starts lets the preview read a catalog read moments before it", async () => {
    const service = new FakeService();
    service.addSeries(seriesInfo({ code: "68520-8-1" }));
    const clock = { now: START };
    let releaseStart = START - HOUR;
    const catalog = new Catalog({
      client: service,
      storage: new MemoryStorage(),
      now: () => clock.now,
      environment: () => "live",
      latestReleaseStart: () => releaseStart,
    });
    await catalog.refresh(["energy_price"], "preview");
    clock.now += 60_000;
    await catalog.refresh(["energy_price"], "preview");
    expect(service.calls).toHaveLength(1);
    releaseStart = clock.now;
    clock.now += 60_000;
    await catalog.refresh(["energy_price"], "preview");
    expect(service.calls).toHaveLength(2);
  });

  test("the user's refresh always calls, and a withheld preview read reports its cause", async () => {
    const { catalog, energyCalls, service } = bounded();
    await user(catalog);
    await user(catalog);
    expect(energyCalls()).toBe(2);
    const failure = new PcdError("server", "The service failed (HTTP 500).");
    service.failWith(() => failure);
    expect((await catalog.refresh(["energy_price"], "user")).get("energy_price")).toBe(failure);
    // The preview right after gets the same failure without calling again.
    expect((await catalog.refresh(["energy_price"], "preview")).get("energy_price")).toBe(failure);
    expect(energyCalls()).toBe(3);
  });
});
