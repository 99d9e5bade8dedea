// A lived month in the browser: the preview page (the real task pane, functions and engine
// under the mock Office host) against the emulator, the page's clock and the emulator's
// moved together through December 2026: an ordinary day, release day (closed from 06:00 US
// Central, the release published at the seeded hour), the offer and Refresh all, a 503
// storm, a network drop, an off-schedule release, the 15th and 25th maintenance windows.
// At every step named checks (support/month-walk.ts) judge the pane against docs/taskpane.md's
// table of the month's states, the emulator's call counts, Usage against Data Limits, the
// cost preview against the charge, and the cells settling once the service is back.
import { PREVIEW_CATALOG_MAX_AGE_MS } from "../../src/core/refresh";
import { MONTH_START } from "../month/support/month-script";
import { classOfMessage } from "../month/support/service-truth";
import {
  BrowserMonth,
  CHECK_WAIT_MS,
  monthStepAt,
  RELEASE_PUBLISHED,
  ServiceLab,
} from "./support/month-walk";
import { openPreview, signIn, startPreviewFixture, type PreviewFixture } from "./support/preview-fixture";

jest.setTimeout(240_000);

let fixture: PreviewFixture;
let lab: ServiceLab | undefined;

beforeAll(async () => {
  fixture = await startPreviewFixture();
}, 180_000);

afterAll(async () => {
  await lab?.close();
  await fixture?.close();
});

const minutesAfter = (iso: string, minutes: number): string =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString();

test("a month in the task pane: each step tells the truth, calls only what it may, costs what it said", async () => {
  lab = await ServiceLab.start(MONTH_START);
  const service = lab;
  const preview = await openPreview(fixture, { now: MONTH_START });
  const month = new BrowserMonth(service, preview);
  const faults503 = () => service.admin("faults", { operation: "*", mode: "status", status: 503 });
  const networkDrop = () => service.admin("faults", { operation: "*", mode: "drop" });
  const noFaults = () => service.admin("faults", undefined, "DELETE");
  try {
    // An ordinary day: sign in, a table, an old month, latest values of three products.
    await month.step("first open, an ordinary day", monthStepAt("first open, an ordinary day"));
    const { url, username, password } = service;
    await signIn({ emulator: { url, username, password, close: () => service.close() } }, preview.pane);
    await month.enterWorkbook();
    await month.paneMatchesState("up");
    await month.usageIsDataLimits("on an ordinary day");
    const tableBefore = await preview.page.evaluate(() => window.__pcdPreview.texts("A1:B2"));
    await month.shoot("ordinary-day");

    await month.step("release day, before the downtime", monthStepAt("release day, before the downtime"));
    await month.enterProbe();
    await month.paneMatchesState("up");

    // Release day from 06:00 US Central: with the Usage tab open, a cell is chosen and a
    // formula typed (a cell being edited must not flood Series Info), and the page lives a minute.
    await month.step("release-day downtime", monthStepAt("release-day downtime"), { downtime: "release" });
    await month.openTab("Usage");
    const releaseProbe = await month.enterProbe();
    await month.live(60_000, 10_000);
    await month.quiet();
    await month.paneMatchesState("release");
    await month.cellsTellState("release", releaseProbe);
    await month.shoot("release-day");

    await month.step(
      "Refresh all in the release-day downtime",
      monthStepAt("Refresh now in the release-day downtime"),
      {
        downtime: "release",
      },
    );
    await month.openTab("Usage");
    const refused = await month.refreshAll();
    const refusal = (await preview.pane.getByTestId("refresh-failed").first().textContent()) ?? "";
    if (refused !== "failed" || classOfMessage(refusal) !== "release" || /no cached data/i.test(refusal)) {
      month.broken.push(
        `invariant "a refresh refused in the downtime says the downtime" broke at step "Refresh all in the release-day downtime": ${refused}: ${refusal}`,
      );
    }
    await month.paneMatchesState("release");

    // The release is published at the seeded hour; a look at the Usage tab reads the catalog.
    await month.step("release published", minutesAfter(RELEASE_PUBLISHED, 15));
    await month.lookAtUsage();
    const published = await month.paneMatchesState("release published");
    if (published.refreshFailed !== null) {
      month.broken.push(
        `invariant "a refresh failure from the downtime is no longer shown" broke at step "release published": ${published.refreshFailed}`,
      );
    }
    await month.usageIsDataLimits("after the release");
    await month.shoot("release-published");
    // The engine saw the release out (the look's Series Info answered): the cell that met
    // the downtime with no cached data fills by itself.
    await month.cellsSettle();

    await month.step("Refresh all after the release", minutesAfter(RELEASE_PUBLISHED, 45));
    await month.lookAtUsage();
    await month.quiet();
    const releasePreview = await month.costPreview();
    const beforeRefresh = await service.stats();
    if ((await month.refreshAll()) !== "summary") {
      month.broken.push(`invariant "Refresh all after the release succeeds" broke: no summary`);
    }
    await month.quiet();
    month.previewIsCharge(releasePreview, beforeRefresh, await service.stats());
    await month.usageIsDataLimits("after the refresh");
    await month.reloadRereads();
    await month.paneMatchesState("up");
    const tableAfter = await preview.page.evaluate(() => window.__pcdPreview.texts("A1:B2"));
    if (tableAfter[1]?.[0] === tableBefore[1]?.[0]) {
      month.broken.push(
        `invariant "the refresh brings the release's month" broke: the table still starts with ${String(tableAfter[1]?.[0])}`,
      );
    }
    await month.shoot("refreshed");

    // A 503 storm: an outage of unknown cause, then its end.
    await month.step("503 storm", monthStepAt("503 storm"), { change: faults503 });
    const stormProbe = await month.enterProbe();
    await month.paneMatchesState("outage");
    await month.cellsTellState("outage", stormProbe);
    await month.live(5 * 60_000);
    await month.shoot("503-storm");
    await month.step("503 storm over", monthStepAt("503 storm over"), { change: noFaults });
    await month.cellsSettle();
    await month.paneMatchesState("up");

    // The network drops (every connection cut), then comes back.
    await month.step("network drop", monthStepAt("network drop"), { change: networkDrop });
    const dropProbe = await month.enterProbe();
    await month.paneMatchesState("unreachable");
    await month.cellsTellState("unreachable", dropProbe);
    await month.live(5 * 60_000);
    await month.shoot("network-drop");
    await month.step("network back", monthStepAt("network back"), { change: noFaults });
    await month.cellsSettle();
    await month.paneMatchesState("up");

    // An off-schedule release with the Usage tab open: its cost preview updates by itself.
    await month.step(
      "Usage tab open before an off-schedule release",
      monthStepAt("Usage tab open before an off-schedule release"),
    );
    await month.lookAtUsage();
    await month.paneMatchesState("up");
    const beforeOffSchedule = await month.costPreview();
    await month.step("off-schedule release", monthStepAt("off-schedule release"), {
      change: () => service.admin("release", {}),
    });
    await month.live(PREVIEW_CATALOG_MAX_AGE_MS + 60_000);
    const offSchedule = await month.costPreview();
    // The release adds a month to every series: the preview asks for more than before it.
    if (offSchedule.total <= beforeOffSchedule.total) {
      month.broken.push(
        `invariant "the cost preview updates after an off-schedule release" broke at step "off-schedule release": ` +
          `before it the preview said ${beforeOffSchedule.total} data requests; ` +
          `${PREVIEW_CATALOG_MAX_AGE_MS / 60_000 + 1} min after it, the Usage tab says: ` +
          `${(await preview.pane.getByTestId("refresh-cost").textContent()) ?? ""}`,
      );
    }
    await month.usageIsDataLimits("after the off-schedule release");
    await month.shoot("off-schedule-release");
    const beforeOffRefresh = await service.stats();
    if ((await month.refreshAll()) !== "summary") {
      month.broken.push(`invariant "Refresh all after the off-schedule release succeeds" broke: no summary`);
    }
    await month.quiet();
    month.previewIsCharge(offSchedule, beforeOffRefresh, await service.stats());
    await month.usageIsDataLimits("after the refresh of the off-schedule release");

    // The maintenance windows of the 15th and the 25th, and their ends.
    for (const [window, over] of [
      ["maintenance on the 15th", "maintenance of the 15th over"],
      ["maintenance on the 25th", "maintenance of the 25th over"],
    ] as const) {
      await month.step(window, monthStepAt(window), { downtime: "maintenance" });
      const probe = await month.enterProbe();
      await month.live(60_000, 10_000);
      await month.paneMatchesState("maintenance");
      await month.cellsTellState("maintenance", probe);
      await month.shoot(window.replace(/ /g, "-"));
      await month.step(over, monthStepAt(over));
      await month.cellsSettle();
      await month.paneMatchesState("up");
    }
    await month.endStep();

    expect(month.broken).toEqual([]);
    expect(preview.errors).toEqual([]);
  } finally {
    // The calls of each step, for whoever reads a failure.
    console.log(
      `month walk calls per step (check waits up to ${CHECK_WAIT_MS} ms):\n` +
        month.calls
          .map((c) => `  ${c.step}: ${JSON.stringify(c.counts)} (${c.userActions} asked)`)
          .join("\n"),
    );
    await preview.close();
  }
});
