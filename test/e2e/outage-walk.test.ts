// A newcomer's walk in the preview page, real engine against the emulator: the service
// stops answering, comes back a month later after a release, and the user refreshes. At
// every step the pane and the cells say what is true: one outage notice with
// its start time, a cell that names its cause and when it tries again, a cost preview
// "as of" the catalog it read after the release with the offer to refresh, and once the
// service answers: no notice, the service available, the waiting cell filled.
import { startOutageWalk, type OutageWalk } from "./support/outage-walk";
import {
  openPreview,
  QUIET_DAY,
  screenshot,
  startPreviewFixture,
  type PreviewFixture,
} from "./support/preview-fixture";

jest.setTimeout(240_000);

let fixture: PreviewFixture;
let walk: OutageWalk | undefined;

beforeAll(async () => {
  fixture = await startPreviewFixture();
}, 180_000);

afterAll(async () => {
  await walk?.close();
  await fixture?.close();
});

test("outage, release, recovery: each step says what is true", async () => {
  walk = await startOutageWalk(QUIET_DAY);
  const preview = await openPreview(fixture, { width: 1100, height: 900 });
  try {
    const record = await walk.walk(preview, "recovery", (step) => screenshot(preview.page, `walk-${step}`));

    // The outage: one notice, with its start on the page's day, and the failed refresh told in it.
    expect(record.outageNotice).toMatch(
      /^Can't reach the PCD service since \d\d:\d\d UTC; cached values are kept; retrying .*The last refresh could not reach it either; nothing was changed\.$/,
    );
    expect(record.outageStatus).toMatch(/^Can't reach the PCD service since \d\d:\d\d UTC;/);
    expect(record.outageStatus).not.toContain("is available");
    // The cell names its cause once, and when it really tries again.
    expect(record.outageCell?.code).toBe("#N/A");
    expect(record.outageCell?.message).toMatch(/will try again at \d\d:\d\d/i);
    expect(record.outageCell?.message).not.toMatch(/gave up after|retries\)/);
    // The service answered this page a minute ago: an outage, not a CORS refusal.
    expect(record.outageCell?.message).not.toContain("CORS");
    const reasons = record.outageCell?.message.match(/could not be reached|not reach/gi) ?? [];
    expect(reasons.length).toBeLessThanOrEqual(1);

    // After the release: the estimate rests on the catalog read now, and the offer is made.
    expect(record.costAsOf).toMatch(/^As of 1[5-9]:\d\d UTC \(the catalog checked then\)\.$/);
    expect(record.offer).toContain("A monthly release came out since the last refresh.");

    // Recovery: the service is available, and the cell that waited has its value.
    expect(record.recoveredStatus).toMatch(/^The PCD service is available\. It last answered at /);
    expect(Number(record.recoveredCell)).not.toBeNaN();
    expect(await preview.pane.getByTestId("outage-notice").count()).toBe(0);
    // The table fetched before the outage now starts with the release's month.
    expect(record.tableBefore?.[0]?.[1]).toMatch(/^Value/);
    expect(record.tableAfter?.[0]).toEqual(record.tableBefore?.[0]);
    expect(record.tableAfter?.[1]?.[0]).not.toBe(record.tableBefore?.[1]?.[0]);
    expect(await preview.pane.getByTestId("refresh-failed").count()).toBe(0);
    expect(preview.errors).toEqual([]);
  } finally {
    await preview.close();
  }
});
