// A lived month in the browser for a member signed in through a team gateway: the gateway
// (with the built add-in beside its API, so the pane reaches it on its own origin: the gateway
// sends no CORS headers) in front of the emulator, the page's clock and the emulator's (which
// the gateway reads too) moved together through December 2026 by the browser month's steps
// (support/month-walk.ts). At each step the walk reads what the Status tab and the notices
// say, what the cells show and what reached the service (the emulator's counters), and judges
// it against docs/taskpane.md's table of the month's states, in its rows for a team gateway:
// an ordinary day, release day with the service closed, the release published, a maintenance
// window, the gateway itself stopped and started again on the same store, and the service
// failing behind a gateway that answers.
import type { Browser } from "playwright-core";
import { startGateway, type RunningGateway } from "../../src/gateway/gateway-app";
import { memoryStore, type MemoryStore } from "../gateway/support/memory-store";
import { askGateway, latestDate, totalDataRequests } from "../gateway/support/team";
import { MONTH_START } from "../month/support/month-script";
import { testBuild, type TestBuild } from "../support/shared-builds";
import { launchChromium } from "./support/browser";
import { KeptPages } from "./support/kept-pages";
import {
  BrowserMonth,
  CHECK_WAIT_MS,
  monthStepAt,
  RELEASE_PUBLISHED,
  ServiceLab,
  STATE_ROWS,
  type PaneState,
  type StateRow,
} from "./support/month-walk";
import { openPreview, signedIn, type PreviewPage } from "./support/preview-fixture";

jest.setTimeout(180_000);

const MEMBER = "ann@example.com";
/** A second member, whose reads leave the gateway keeping a series Ann's workbook never asked for. */
const TEAMMATE = "bob@example.com";
const PASSWORD = "correct horse battery staple";

const WINDOW_END = String.raw`22:00 US Central Time`;
const GATEWAY_KEEPS = String.raw`Cached data stays available, and so do the series your team's gateway keeps\.$`;
const NOT_KEPT = String.raw`the team gateway keeps no copy of \S+ yet\.( Will try again at \d\d:\d\d UTC\.)?$`;

/**
 * docs/taskpane.md's month's states as a member of a team gateway reads them: in a window the
 * sentence adds what the gateway keeps, and a cell whose series the gateway lacks names it;
 * every other row is the direct sign-in's.
 */
const GATEWAY_ROWS: Readonly<Record<PaneState, StateRow>> = {
  ...STATE_ROWS,
  release: {
    ...STATE_ROWS.release,
    status: new RegExp(
      String.raw`^Release day: the service is closed until the new data is published \(by ${WINDOW_END} at the latest: .+ from now\)\. ${GATEWAY_KEEPS}`,
    ),
    cell: new RegExp(
      String.raw`^The service is down for the monthly data release until ${WINDOW_END} at the latest \(.+ your time\); ${NOT_KEPT}`,
    ),
  },
  maintenance: {
    ...STATE_ROWS.maintenance,
    status: new RegExp(
      String.raw`^The PCD service is in maintenance until .+ \(.+ from now\)\. ${GATEWAY_KEEPS}`,
    ),
    cell: new RegExp(
      String.raw`^The service is down for maintenance until ${WINDOW_END} \(.+ your time\); ${NOT_KEPT}`,
    ),
  },
  // The calls go to the gateway: what cannot be reached, or fails, is named as the gateway.
  outage: {
    ...STATE_ROWS.outage,
    status:
      /^Your team's gateway answers HTTP 503 since (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC: the gateway, or the PCD service behind it, is failing; cached values are kept; retrying/,
  },
  unreachable: {
    ...STATE_ROWS.unreachable,
    status:
      /^Can't reach your team's gateway since (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(the PCD service behind it may be up\); cached values are kept; retrying/,
  },
};

let build: TestBuild;
let browser: Browser;
let lab: ServiceLab;
let store: MemoryStore;
let gateway: RunningGateway | undefined;
let pages: KeptPages;

/** The team's gateway on the lab's service, serving the built add-in; `port` to start it again where it was. */
function startWalkGateway(port = 0): Promise<RunningGateway> {
  // The gateway's clock is the emulator's, which the walk moves.
  const now = (): number => lab.state.clock.now().getTime();
  return startGateway(
    {
      upstream: {
        base: lab.url,
        auth: lab.url,
        credentials: { username: lab.username, password: lab.password },
        fetch: (input, init) => fetch(input, init),
        now,
      },
      store,
      now,
      dist: build.folder,
    },
    { port, host: "127.0.0.1" },
  );
}

beforeAll(async () => {
  build = await testBuild("addin");
  lab = await ServiceLab.start(MONTH_START);
  store = memoryStore();
  for (const member of [MEMBER, TEAMMATE])
    await store.members.save(member, PASSWORD, { budget: null, admin: false });
  gateway = await startWalkGateway();
  browser = await launchChromium();
  pages = new KeptPages(browser, new URL(gateway.url).origin);
}, 120_000);

afterAll(async () => {
  await pages?.close();
  await browser?.close();
  await gateway?.close();
  await lab?.close();
  build?.release();
});

const minutesAfter = (iso: string, minutes: number): string =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString();

/** Signs in as the gateway's member, the service and token addresses the gateway's. */
async function signInThroughGateway(preview: PreviewPage, url: string): Promise<void> {
  const { pane } = preview;
  await pane.getByRole("tab", { name: "Sign in" }).click();
  await pane.getByLabel("Username").fill(MEMBER);
  await pane.getByLabel("Password").fill(PASSWORD);
  await pane.getByRole("button", { name: "Advanced" }).click();
  await pane.getByLabel("Service address").fill(`${url}/api`);
  await pane.getByLabel("Token address").fill(`${url}/auth`);
  await pane.getByRole("button", { name: "Sign in" }).click();
  await signedIn(pane);
}

test("a month through a team gateway: the pane tells each state truly, cells keep what the gateway keeps, kept series cost nothing", async () => {
  const running = gateway;
  if (!running) throw new Error("no gateway");
  const gatewayUrl = running.url;
  const preview = await openPreview(
    { site: { url: gatewayUrl, close: async () => undefined }, pages },
    { now: MONTH_START },
  );
  const month = new BrowserMonth(lab, preview, GATEWAY_ROWS);
  const charged = async (): Promise<number> => totalDataRequests(await lab.stats());
  /** A failed expectation of this walk's own, recorded with the step like the helpers' checks. */
  const check = (holds: boolean, invariant: string, detail: string): void => {
    if (!holds) month.broken.push(`invariant "${invariant}" broke: ${detail}`);
  };
  const tableTop = async (): Promise<unknown> =>
    (await preview.page.evaluate(() => window.__pcdPreview.texts("A1:B2")))[1]?.[0];
  // A series only the teammate read: the gateway keeps it, Ann's page has never asked for it.
  const teamOnly = month.book.probes[month.book.probes.length - 1] ?? "";
  try {
    // 1. An ordinary day: signed in through the gateway, the Status tab names it and the member.
    await month.step("an ordinary day through the gateway", MONTH_START);
    await signInThroughGateway(preview, gatewayUrl);
    const header = (await preview.pane.getByTestId("header-user").textContent()) ?? "";
    check(header.includes(MEMBER), "the header names the member", header);
    await month.openTab("Status");
    const address = (await preview.pane.getByTestId("gateway-address").textContent()) ?? "";
    const member = (await preview.pane.getByTestId("gateway-member").textContent()) ?? "";
    check(address === `${gatewayUrl}/api`, "Status names the gateway", address);
    check(member === MEMBER, "Status names the member", member);
    await month.enterWorkbook();
    await month.paneMatchesState("up");
    // One Developer account behind the gateway: the team's Data Limits are the service's.
    await month.usageIsDataLimits("through the gateway on an ordinary day");
    const teamOnlyRecord = await askGateway(
      gatewayUrl,
      { username: TEAMMATE, password: PASSWORD },
      `/energy_price/v1/export/series/${teamOnly}`,
    );
    check(
      latestDate(teamOnlyRecord[0]) !== "",
      "the teammate's read is kept",
      JSON.stringify(teamOnlyRecord),
    );
    const tableBefore = await tableTop();
    await month.shoot("gateway-ordinary-day");

    // 2. Release day from 06:00 US Central: the service is closed, the gateway serves its copy.
    await month.step("release-day downtime through the gateway", monthStepAt("release-day downtime"));
    const chargedBeforeRelease = await charged();
    const kept = await month.enter("D10", `=PCD.VALUE("${teamOnly}")`);
    month.cells.set("D10", `=PCD.VALUE("${teamOnly}")`);
    check(
      kept.error === null && Number.isFinite(Number(kept.text)),
      "a series the gateway keeps fills a new cell on release day",
      JSON.stringify(kept),
    );
    const releaseProbe = await month.enterProbe();
    await month.live(60_000, 10_000);
    await month.paneMatchesState("release");
    await month.cellsTellState("release", releaseProbe);
    check(
      (await charged()) === chargedBeforeRelease,
      "no data request is charged while the service is closed",
      `${(await charged()) - chargedBeforeRelease} charged`,
    );
    await month.shoot("gateway-release-day");

    // Hours later, the data still not out: the pane reads the gateway's catalog again every few
    // minutes for the cell that waits, and the gateway's copy is the one it read before the
    // window (the service answers nothing meanwhile): still release day.
    await month.step("release day, afternoon, through the gateway", monthStepAt("release day, afternoon"));
    await month.live(10 * 60_000, 5 * 60_000);
    await month.paneMatchesState("release");
    await month.cellsTellState("release", releaseProbe);
    check(
      (await charged()) === chargedBeforeRelease,
      "no data request is charged while the service is closed",
      `${(await charged()) - chargedBeforeRelease} charged by the afternoon`,
    );

    // 3. The release published: the gateway reads its catalog from the service again, the pane
    // learns the data is out from it, and the cell that waited fills by itself.
    await month.step("release published, through the gateway", minutesAfter(RELEASE_PUBLISHED, 15));
    await month.cellsSettle();
    await month.paneMatchesState("release published");
    const releasePreview = await month.costPreview();
    const beforeRefresh = await charged();
    check(
      (await month.refreshAll()) === "summary",
      "Refresh all after the release succeeds through the gateway",
      "no summary",
    );
    await month.quiet();
    // Through a gateway the preview is what the refresh asks the gateway for; a series the
    // gateway already bought costs the service nothing.
    const refreshCharged = (await charged()) - beforeRefresh;
    check(
      refreshCharged <= releasePreview.total,
      "the service charges the refresh no more than its cost preview",
      `the preview said ${releasePreview.total}, the service charged ${refreshCharged}`,
    );
    const tableAfter = await tableTop();
    check(
      tableAfter !== tableBefore,
      "the refresh brings the release's month",
      `the table starts ${String(tableAfter)}`,
    );
    await month.paneMatchesState("up");
    await month.usageIsDataLimits("after the refresh through the gateway");
    // The gateway keeps what the refresh bought: the teammate's read of the same series is free.
    const tableCode = /"([^"]+)"/.exec(month.cells.get("A1") ?? "")?.[1] ?? "";
    const beforeTeammate = await charged();
    await askGateway(
      gatewayUrl,
      { username: TEAMMATE, password: PASSWORD },
      `/energy_price/v1/export/series/${tableCode}`,
    );
    check(
      (await charged()) === beforeTeammate,
      "a series the gateway keeps costs the team nothing",
      `the teammate's read of ${tableCode} charged ${(await charged()) - beforeTeammate}`,
    );
    // Series the teammate reads now: the gateway keeps them with the release's month.
    const keptCurrent = month.book.probes.slice(-3, -1);
    await askGateway(
      gatewayUrl,
      { username: TEAMMATE, password: PASSWORD },
      `/energy_price/v1/export/series/${keptCurrent.join(",")}`,
    );
    await month.shoot("gateway-release-published");

    // 4. The maintenance window of the 15th: as release day, in the maintenance's words.
    await month.step("maintenance through the gateway", monthStepAt("maintenance on the 15th"));
    const chargedBeforeMaintenance = await charged();
    const keptInMaintenance = await month.enter("D11", `=PCD.VALUE("${keptCurrent[0] ?? ""}")`);
    month.cells.set("D11", `=PCD.VALUE("${keptCurrent[0] ?? ""}")`);
    check(
      keptInMaintenance.error === null && Number.isFinite(Number(keptInMaintenance.text)),
      "a series the gateway keeps fills a new cell in the maintenance window",
      JSON.stringify(keptInMaintenance),
    );
    const maintenanceProbe = await month.enterProbe();
    await month.live(60_000, 10_000);
    await month.paneMatchesState("maintenance");
    await month.cellsTellState("maintenance", maintenanceProbe);
    check(
      (await charged()) === chargedBeforeMaintenance,
      "no data request is charged in the maintenance window",
      `${(await charged()) - chargedBeforeMaintenance} charged`,
    );
    await month.shoot("gateway-maintenance");
    await month.step("maintenance over, through the gateway", monthStepAt("maintenance of the 15th over"));
    await month.cellsSettle();
    await month.paneMatchesState("up");

    // 5. The gateway stops while the service is fine: the pane cannot reach it (no window to
    // blame), cached cells keep their values; then it starts again on the same store.
    const port = Number(new URL(gatewayUrl).port);
    await month.step("the gateway unreachable", "2026-12-16T15:00:00Z", {
      change: async () => {
        await gateway?.close();
        gateway = undefined;
      },
    });
    const unreachableProbe = await month.enterProbe();
    // The cell's failure is what tells the pane; each reading of the pane opens the Usage tab
    // (a look that calls), so it reads once the notice is up.
    await preview.pane.getByTestId("outage-notice").waitFor({ timeout: CHECK_WAIT_MS });
    await month.paneMatchesState("unreachable");
    await month.cellsTellState("unreachable", unreachableProbe);
    // The cell names what could not be reached: the gateway's address (the call may be the
    // token's renewal, at its token address), not the service's.
    const unreached = (await month.cell(unreachableProbe)).error?.message ?? "";
    check(
      unreached.includes(gatewayUrl) && !unreached.includes(lab.url),
      "a cell that cannot reach the gateway names the gateway",
      unreached,
    );
    await month.shoot("gateway-unreachable");
    const chargedBeforeBack = await charged();
    await month.step("the gateway back on its store", "2026-12-16T15:10:00Z", {
      change: async () => {
        gateway = await startWalkGateway(port);
      },
    });
    await month.cellsSettle();
    await month.paneMatchesState("up");
    // Only the series no one had asked for before (the cell that met the stopped gateway) is
    // bought: one data request.
    check(
      (await charged()) - chargedBeforeBack === 1,
      "no data request is charged again for kept series after the gateway's restart",
      `${(await charged()) - chargedBeforeBack} charged`,
    );

    // 6. The service fails (503) behind a gateway that answers.
    await month.step("the service failing behind the gateway", "2026-12-16T17:00:00Z", {
      change: () => lab.admin("faults", { operation: "*", mode: "status", status: 503 }),
    });
    const failingProbe = await month.enterProbe();
    await preview.pane.getByTestId("outage-notice").waitFor({ timeout: CHECK_WAIT_MS });
    await month.paneMatchesState("outage");
    await month.cellsTellState("outage", failingProbe);
    // The gateway still answers what it keeps current: the cell fills, and the gateway's answer
    // is not taken for the service's return (the Status tab still tells the failure).
    const keptWhileFailing = await month.enter("D12", `=PCD.VALUE("${keptCurrent[1] ?? ""}")`);
    month.cells.set("D12", `=PCD.VALUE("${keptCurrent[1] ?? ""}")`);
    check(
      keptWhileFailing.error === null && Number.isFinite(Number(keptWhileFailing.text)),
      "a series the gateway keeps fills a new cell while the service fails",
      JSON.stringify(keptWhileFailing),
    );
    await month.openTab("Status");
    const stillFailing = (await preview.pane.getByTestId("service-state").textContent()) ?? "";
    check(
      GATEWAY_ROWS.outage.status.test(stillFailing),
      "the pane still tells the failure after the gateway served a kept series",
      stillFailing,
    );
    await month.shoot("gateway-service-failing");
    await month.step("the service back behind the gateway", "2026-12-16T17:30:00Z", {
      change: () => lab.admin("faults", undefined, "DELETE"),
    });
    await month.cellsSettle();
    await month.paneMatchesState("up");
    await month.endStep();

    expect(month.broken).toEqual([]);
    expect(preview.errors).toEqual([]);
  } finally {
    console.log(
      `gateway month walk calls at the service per step (check waits up to ${CHECK_WAIT_MS} ms):\n` +
        month.calls.map((c) => `  ${c.step}: ${JSON.stringify(c.counts)}`).join("\n"),
    );
    await preview.close();
  }
});
