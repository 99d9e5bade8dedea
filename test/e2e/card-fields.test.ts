// A PCD.SERIES card's fields in Chromium on the preview page (mock Excel host, the real
// bundles, the in-process emulator): typed into the grid as a person would, =A1.Latest
// shows the card's latest value with its unit, and an unknown field is #FIELD!.
import {
  openPreview,
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

test("=A1.Latest typed next to =PCD.SERIES shows the card's latest value and unit; =A1.Price is #FIELD!", async () => {
  preview = await openPreview(fixture);
  const { page, pane } = preview;
  await signIn(fixture, pane);
  const typeInto = async (address: string, content: string): Promise<void> => {
    await page.locator(`td[data-address="${address}"]`).click();
    const bar = page.getByRole("textbox", { name: "Formula" });
    await bar.fill(content);
    await bar.press("Enter");
  };
  await typeInto("A1", '=PCD.SERIES("68520-8-1")');
  await typeInto("B1", "=A1.Latest");
  await typeInto("C1", "=A1.[LatestMonth]");
  await typeInto("D1", "=A1.Price");
  await page.waitForFunction(() => {
    const card = window.__pcdPreview.cell("A1");
    return card.text !== "" && !card.busy && !window.__pcdPreview.cell("B1").busy;
  });
  const card = (await page.locator('td[data-address="A1"]').getAttribute("title")) ?? "";
  const latest = /^Latest: (.+)$/m.exec(card)?.[1];
  expect(latest).toMatch(/^[\d.]+ \S+\/\S+$/);
  const shown = await page.evaluate(() =>
    ["B1", "C1", "D1"].map((address) => window.__pcdPreview.cell(address)),
  );
  expect(shown[0]).toMatchObject({ text: latest, error: null });
  expect(shown[1]).toMatchObject({ text: /^LatestMonth: (.+)$/m.exec(card)?.[1], error: null });
  expect(shown[2]?.text).toBe("#FIELD!");
  expect(shown[2]?.error?.message).toMatch(/^The card in A1 has no field "Price"\. Its fields: Code, /);
  expect(await page.locator('td[data-address="B1"]').textContent()).toBe(latest);
  expect(preview.errors).toEqual([]);
});
