// A newcomer's walk through an outage, a release and the recovery in the preview page,
// against an emulator of its own (the walk moves its clock a month on): the browser test
// checks what the pane says at each step (test/e2e/outage-walk.test.ts), and
// `npm run screenshots -- outage release recovery` takes its pictures (docs/screenshots).
// Each step waits for the pane to say the true thing, so a step that would show a false
// statement fails by timing out.
import { startEmulator, type RunningEmulator } from "../../../src/emulator";
import { signIn, type PreviewPage } from "./preview-fixture";

/** After the December 2026 release (3 Dec), away from maintenance: the service comes back here. */
export const AFTER_RELEASE = "2026-12-04T15:00:00Z";

export type WalkStep = "outage" | "release" | "recovery";
export const WALK_STEPS: readonly WalkStep[] = ["outage", "release", "recovery"];

/** What the pane and the cells said at each step, for the test's assertions. */
export interface WalkRecord {
  outageNotice?: string;
  outageStatus?: string;
  /** The cell that asked for new data during the outage: its error code and message. */
  outageCell?: { code: string; message: string };
  costAsOf?: string;
  offer?: string;
  recoveredStatus?: string;
  recoveredCell?: string;
  /** The table's header and newest row before the outage and after the refresh. */
  tableBefore?: string[][];
  tableAfter?: string[][];
}

export interface OutageWalk {
  emulator: RunningEmulator;
  record: WalkRecord;
  /** Walks up to and including `step`, calling `at` as each step is reached. */
  walk(
    preview: PreviewPage,
    until: WalkStep,
    at?: (step: WalkStep, preview: PreviewPage) => Promise<void>,
  ): Promise<WalkRecord>;
  close(): Promise<void>;
}

const WAIT_MS = 60_000;

async function post(
  emulator: RunningEmulator,
  pathname: string,
  body?: unknown,
  method = "POST",
): Promise<void> {
  const response = await fetch(`${emulator.url}${pathname}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
}

async function settled(preview: PreviewPage, address: string): Promise<void> {
  await preview.page.waitForFunction(
    (cell) => {
      const shown = window.__pcdPreview.cell(cell);
      return shown.text !== "" && !shown.busy;
    },
    address,
    { timeout: WAIT_MS },
  );
}

/** The walk's emulator starts on the page's quiet day (preview-fixture's QUIET_DAY). */
export async function startOutageWalk(now: string): Promise<OutageWalk> {
  const emulator = await startEmulator({ port: 0, quiet: true, now });
  const record: WalkRecord = {};

  const walk: OutageWalk["walk"] = async (preview, until, at) => {
    const { page, pane } = preview;
    const reached = async (step: WalkStep): Promise<boolean> => {
      await at?.(step, preview);
      return step === until;
    };
    await signIn({ emulator }, pane);
    // A workbook with one table, fetched while the service answers.
    await page.evaluate(() => window.__pcdPreview.enter("A1", '=PCD.VALUES("68520-8-1",,,"2026-01",,1,0,1)'));
    await settled(preview, "A1");
    record.tableBefore = await page.evaluate(() => window.__pcdPreview.texts("A1:B2"));

    // The service stops answering: every connection is dropped.
    await post(emulator, "/__admin/faults", { operation: "*", mode: "drop" });
    // A new cell needs data the cache does not have; a refresh-all finds nothing either.
    await page.evaluate(() => window.__pcdPreview.enter("D2", '=PCD.VALUE("68520-8-1",,"EUR")'));
    await page.waitForFunction(() => window.__pcdPreview.cell("D2").error !== null, undefined, {
      timeout: WAIT_MS,
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    const section = pane.getByRole("region", { name: "Refresh this workbook" });
    await section.getByRole("button", { name: "Refresh all" }).click();
    const notice = pane
      .getByTestId("outage-notice")
      .filter({ hasText: "Can't reach the PCD service since" })
      .filter({ hasText: "The last refresh could not reach it either" });
    await notice.waitFor({ timeout: WAIT_MS });
    record.outageNotice = (await notice.textContent()) ?? "";
    const error = await page.evaluate(() => window.__pcdPreview.cell("D2").error);
    if (error) record.outageCell = error;
    await page.evaluate(() => window.__pcdPreview.select("D2"));
    if (await reached("outage")) return record;
    await pane.getByRole("tab", { name: "Status" }).click();
    record.outageStatus = (await pane.getByTestId("service-state").textContent()) ?? "";

    // A month on, after the December release, the service answers again.
    await post(emulator, "/__admin/clock", { now: AFTER_RELEASE });
    await post(emulator, "/__admin/faults", undefined, "DELETE");
    await page.clock.setSystemTime(new Date(AFTER_RELEASE));
    // Opening the Usage tab plans the refresh: the cost preview reads the catalog again.
    await pane.getByRole("tab", { name: "Usage" }).click();
    // As of today's time (the date is said only for another day).
    const asOf = pane.getByTestId("refresh-cost-as-of").filter({ hasText: /^As of 1[5-9]:\d\d UTC/ });
    await asOf.waitFor({ timeout: WAIT_MS });
    record.costAsOf = (await asOf.textContent()) ?? "";
    const offer = pane.getByTestId("refresh-offer");
    await offer.waitFor({ timeout: WAIT_MS });
    record.offer = (await offer.textContent()) ?? "";
    await pane.getByTestId("outage-notice").waitFor({ state: "detached", timeout: WAIT_MS });
    if (await reached("release")) return record;

    // The user takes the offer: the refresh brings the release and the cell left waiting.
    await offer.getByRole("button", { name: "Refresh now" }).click();
    await pane.getByTestId("refresh-summary").waitFor({ timeout: WAIT_MS });
    await page.waitForFunction(() => window.__pcdPreview.cell("D2").error === null, undefined, {
      timeout: WAIT_MS,
    });
    record.recoveredCell = await page.evaluate(() => window.__pcdPreview.cell("D2").text);
    // Newest month first: the release's month arrives at the top of the table.
    await page.waitForFunction(
      (before) => window.__pcdPreview.texts("A2:A2")[0]?.[0] !== before,
      record.tableBefore[1]?.[0],
      { timeout: WAIT_MS },
    );
    record.tableAfter = await page.evaluate(() => window.__pcdPreview.texts("A1:B2"));
    await pane.getByRole("tab", { name: "Status" }).click();
    const available = pane.getByTestId("service-state").filter({ hasText: "The PCD service is available." });
    await available.waitFor({ timeout: WAIT_MS });
    record.recoveredStatus = (await available.textContent()) ?? "";
    await reached("recovery");
    return record;
  };

  return { emulator, record, walk, close: () => emulator.close() };
}
