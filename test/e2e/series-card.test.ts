// PCD.SERIES in Chromium on the preview page (mock Excel host claiming ExcelApi 1.19, the
// real bundles, the in-process emulator): the cell shows the series and carries its card,
// and the card costs the one Series Values request a PCD.VALUE of the series costs too.
import {
  openPreview,
  screenshot,
  signIn,
  startPreviewFixture,
  type PreviewFixture,
  type PreviewPage,
} from "./support/preview-fixture";

jest.setTimeout(120_000);

let fixture: PreviewFixture;
let preview: PreviewPage | undefined;

beforeAll(async () => {
  fixture = await startPreviewFixture();
}, 180_000);

afterAll(async () => {
  await preview?.close();
  await fixture?.close();
});

test("=PCD.SERIES shows the series with its card; =PCD.VALUE of the series costs nothing more", async () => {
  preview = await openPreview(fixture);
  const { page, pane } = preview;
  await signIn(fixture, pane);
  const before = (await fixture.admin("/__admin/stats", undefined, "GET")) as {
    calls: Record<string, number>;
  };
  await page.evaluate(() => window.__pcdPreview.enter("B2", '=PCD.SERIES("68520-8-1")'));
  await page.waitForFunction(() => {
    const shown = window.__pcdPreview.cell("B2");
    return shown.text !== "" && !shown.busy;
  });
  const cell = page.locator('td[data-address="B2"]');
  expect(await page.evaluate(() => window.__pcdPreview.cell("B2").error)).toBeNull();
  expect(await cell.textContent()).toMatch(/^68520-8-1 /);
  await expect(cell.getAttribute("class")).resolves.toContain("card");
  const card = (await cell.getAttribute("title")) ?? "";
  expect(card).toMatch(/^Code: 68520-8-1$/m);
  expect(card).toMatch(/^Latest: [\d.]+ \S+$/m);
  expect(card).toMatch(/^LatestMonth: \d{4}-\d{2}$/m);
  expect(card).toMatch(/^Values: \d+ rows$/m);
  // Nothing spilled: the card is one cell.
  expect(await page.evaluate(() => window.__pcdPreview.cell("C2").text)).toBe("");

  await page.evaluate(() => window.__pcdPreview.enter("B4", '=PCD.VALUE("68520-8-1")'));
  await page.waitForFunction(() => {
    const shown = window.__pcdPreview.cell("B4");
    return shown.text !== "" && !shown.busy;
  });
  const latest = /^Latest: ([\d.]+) /m.exec(card)?.[1];
  expect(Number(await page.evaluate(() => window.__pcdPreview.cell("B4").text))).toBeCloseTo(
    Number(latest),
    2,
  );
  const after = (await fixture.admin("/__admin/stats", undefined, "GET")) as {
    calls: Record<string, number>;
  };
  expect((after.calls.series_values ?? 0) - (before.calls.series_values ?? 0)).toBe(1);
  expect((after.calls.series_hist ?? 0) - (before.calls.series_hist ?? 0)).toBe(0);
  await screenshot(page, "series-card");
  expect(preview.errors).toEqual([]);
});
