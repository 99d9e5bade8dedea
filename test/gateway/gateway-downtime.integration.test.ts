// A maintenance day through the team gateway, against the emulator as the service: a member with
// no cache of their own gets every series the gateway keeps, with the values the team bought, and
// a series it does not keep names the window and the gateway; the service charges nothing.
import { createEngine, MemoryStorage, type Engine } from "../../src/core";
import { serviceCondition } from "../../src/core/service-condition";
import { runWorkbook, type RunReport } from "../../src/headless";
import { serviceConditionText } from "../../src/taskpane/outage-text";
import { runDirect } from "./support/direct-run";
import { memoryStore } from "./support/memory-store";
import {
  catalogOf,
  startService,
  startTeamGateway,
  totalCalls,
  totalDataRequests,
  type ServiceUnderTest,
} from "./support/team";

const PASSWORD = "correct horse battery staple";
/** Wednesday 25 Nov 2026, 09:00 US Central: a maintenance day (06:00 to 22:00). */
const MAINTENANCE = "2026-11-25T15:00:00Z";

let service: ServiceUnderTest;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => service.close());

function run(formulas: readonly string[], url: string, member: string): Promise<RunReport> {
  return runWorkbook({
    formulas,
    baseUrl: `${url}/api`,
    authUrl: `${url}/auth`,
    username: member,
    password: PASSWORD,
    clock: { now: service.now },
    log: () => undefined,
    timeoutMs: 60_000,
  });
}

function results(report: RunReport): Record<string, unknown> {
  const pass = report.passes[report.passes.length - 1];
  return Object.fromEntries((pass?.results ?? []).map((result) => [result.formula, result]));
}

test("during maintenance a member with no cache gets what the gateway keeps; a series it lacks names the window and the gateway", async () => {
  const energy = (await catalogOf(service, "energy_price")).map((record) => record.code);
  const kept = energy.slice(0, 8);
  const lacking = energy[8] ?? "";
  const annCells = [
    ...kept.map((code) => `=PCD.VALUE("${code}")`),
    `=PCD.VALUES("${kept[0] ?? ""}",,,"2015-01","2015-12")`,
  ];
  const store = memoryStore();
  for (const member of ["ann@example.com", "bob@example.com"])
    await store.members.save(member, PASSWORD, { budget: null, admin: false });
  const gateway = await startTeamGateway(service, store);
  try {
    const ann = await run(annCells, gateway.url, "ann@example.com");
    const bought = results(ann);
    for (const cell of annCells) expect(bought[cell]).toHaveProperty("value");

    await service.setClock(MAINTENANCE);
    const chargedBefore = totalDataRequests(await service.stats());
    const callsBefore = totalCalls(await service.stats());
    // The lacking series sits among the kept ones, so it shares their calls.
    const lackingCell = `=PCD.VALUE("${lacking}")`;
    const bobCells = [...annCells.slice(0, 4), lackingCell, ...annCells.slice(4)];
    const bob = await run(bobCells, gateway.url, "bob@example.com");
    expect(bob.signInError).toBeUndefined();
    const got = results(bob);
    for (const cell of annCells) expect(got[cell]).toEqual(bought[cell]);
    expect(got[lackingCell]).toMatchObject({
      error: {
        message: expect.stringMatching(
          new RegExp(
            `^The service is down for maintenance until 22:00 US Central Time \\(.+ your time\\); the team gateway keeps no copy of ${lacking} yet\\. Will try again at \\d{2}:\\d{2} UTC\\.$`,
          ),
        ),
      },
    });
    expect(totalDataRequests(await service.stats())).toBe(chargedBefore);
    // The gateway asked the service once and held every other call for the minute: Bob's
    // halved calls and reads cost the team's daily quota one or two calls, not one each.
    expect(totalCalls(await service.stats()) - callsBefore).toBeLessThanOrEqual(2);
  } finally {
    await gateway.close();
  }
});

test("release day through the gateway: last month's values while the service is closed, told as release day; once the data is out a member starting then and one who read before both see it; every cell has the new month after the deadline", async () => {
  // Monday 30 Nov 2026: an ordinary day. December's release is Thursday the 3rd, its data at
  // noon US Central, its deadline 22:00.
  await service.setClock("2026-11-30T15:00:00Z");
  const energy = (await catalogOf(service, "energy_price")).map((record) => record.code);
  const cells = energy.slice(10, 16).map((code) => `=PCD.VALUE("${code}")`);
  const store = memoryStore();
  for (const member of ["ann@example.com", "bob@example.com", "cid@example.com"])
    await store.members.save(member, PASSWORD, { budget: null, admin: false });
  const gateway = await startTeamGateway(service, store);
  /** A member's own engine through the gateway, kept across runs (the runner's is new each run). */
  const memberEngine = () =>
    createEngine(
      {
        fetch: (input, init) => fetch(input, init),
        storage: new MemoryStorage(),
        clock: { now: service.now },
      },
      { settings: { baseUrl: `${gateway.url}/api`, authUrl: `${gateway.url}/auth`, environment: "live" } },
    );
  const runIn = (engine: Engine, member: string) =>
    runWorkbook({
      formulas: cells,
      engine,
      username: member,
      password: PASSWORD,
      clock: { now: service.now },
      log: () => undefined,
      timeoutMs: 60_000,
    });
  const bob = memberEngine();
  const runBob = () => runIn(bob, "bob@example.com");
  const paneSays = () => serviceConditionText(serviceCondition(bob.serviceState()), service.now()).text;
  try {
    const november = results(await run(cells, gateway.url, "ann@example.com"));

    // 08:00 US Central on release day: the service is closed; the gateway serves its copy.
    await service.setClock("2026-12-03T14:00:00Z");
    const closed = results(await runBob());
    for (const cell of cells) expect(closed[cell]).toEqual(november[cell]);
    expect(bob.serviceState()).toMatchObject({ available: false, reason: "release", throughGateway: true });
    expect(paneSays()).toMatch(
      /^Release day: .*\. Cached data stays available, and so do the series your team's gateway keeps\.$/,
    );

    // 13:00 US Central: the data came out at noon. A member starting now reads the gateway's
    // catalog, which it read from the service after noon: the pane no longer says release day.
    await service.setClock("2026-12-03T19:00:00Z");
    const cid = memberEngine();
    const published = results(await runIn(cid, "cid@example.com"));
    expect(cid.serviceState()).toMatchObject({ available: true });
    expect(cells.some((cell) => JSON.stringify(published[cell]) !== JSON.stringify(november[cell]))).toBe(
      true,
    );

    // Bob, whose engine read the gateway's copy in the downtime, reads its catalog again every
    // few minutes while the release is awaited: ten minutes on, he has December's data too.
    await service.setClock("2026-12-03T19:10:00Z");
    const bobAfterNoon = results(await runBob());
    for (const cell of cells) expect(bobAfterNoon[cell]).toEqual(published[cell]);
    expect(bob.serviceState()).toMatchObject({ available: true });

    // 23:00 US Central: past the deadline. The catalog Bob read through the gateway in the
    // downtime was its copy of November's: it is read again, and the cells show December's data.
    await service.setClock("2026-12-04T05:00:00Z");
    const released = results(await runBob());
    const direct = results(await runDirect(service, cells));
    for (const cell of cells) expect(released[cell]).toEqual(direct[cell]);
    expect(cells.some((cell) => JSON.stringify(direct[cell]) !== JSON.stringify(november[cell]))).toBe(true);
    expect(paneSays()).toMatch(/^The PCD service is available\./);
  } finally {
    await gateway.close();
  }
});
