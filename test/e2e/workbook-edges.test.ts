// The workbook at its edges, in Chromium on the preview page (mock Excel host with its
// 300-row sheet, the real bundles, the in-process emulator), used as a person would:
// several series inserted as tables (below each other, then side by side) without a
// #SPILL!; Restore after a frozen number was typed over, typed back as shown, and overwritten
// with "Restore anyway"; Write report for a release whose report does not fit the sheet; and
// the grid putting the sheet's rows in the page as they are reached.
import type { Page } from "playwright-core";
import {
  openPreview,
  screenshot,
  signIn,
  startPreviewFixture,
  type PreviewFixture,
  type PreviewPage,
} from "./support/preview-fixture";

// Generous: a loaded 2-core machine runs a browser, the emulator and other suites at once.
jest.setTimeout(120_000);

let fixture: PreviewFixture;
let opened: PreviewPage[] = [];

beforeAll(async () => {
  fixture = await startPreviewFixture();
}, 180_000);

afterAll(async () => {
  await fixture?.close();
});

afterEach(async () => {
  for (const preview of opened) {
    expect(preview.errors).toEqual([]);
    await preview.close();
  }
  opened = [];
});

async function open(): Promise<PreviewPage> {
  const preview = await openPreview(fixture);
  opened.push(preview);
  return preview;
}

/** A series with a currency and a unit, monthly since long before 2025. */
const PRICED = "68520-8-1";

/** Types into a cell through the formula bar, as a person does. */
async function typeInto(page: Page, address: string, content: string): Promise<void> {
  await page.locator(`td[data-address="${address}"]`).click();
  const bar = page.getByRole("textbox", { name: "Formula" });
  await bar.fill(content);
  await bar.press("Enter");
}

async function settled(page: Page, addresses: readonly string[]): Promise<void> {
  await page.waitForFunction(
    (cells) =>
      cells.every((cell) => {
        const shown = window.__pcdPreview.cell(cell);
        return shown.text !== "" && !shown.busy;
      }),
    addresses,
  );
}

const content = (page: Page, address: string) =>
  page.evaluate((cell) => window.__pcdPreview.cell(cell).content, address);

/** "Sheet1!A15:C27" → its corners, zero-based. */
function area(address: string): { top: number; left: number; bottom: number; right: number } {
  const match = /^Sheet1!([A-Z])(\d+):([A-Z])(\d+)$/.exec(address);
  if (!match) throw new Error(`not a range on Sheet1: ${address}`);
  const column = (letter: string): number => letter.charCodeAt(0) - 65;
  return {
    top: Number(match[2]) - 1,
    left: column(match[1]!),
    bottom: Number(match[4]) - 1,
    right: column(match[3]!),
  };
}

const cellName = (row: number, column: number): string => `${String.fromCharCode(65 + column)}${row + 1}`;

describe.each<["below" | "beside", string]>([
  ["below", "Below each other"],
  ["beside", "Side by side"],
])("three tables inserted %s", (stack, choice) => {
  test(`three checked series, Table, ${choice}: every table whole, no #SPILL!, each range named`, async () => {
    const preview = await open();
    const { page, pane } = preview;
    await signIn(fixture, pane);
    await pane.getByRole("searchbox", { name: "Search series" }).fill("gas germany");
    await pane.getByTestId("series-count").filter({ hasText: 'for "gas germany"' }).waitFor();
    const rows = pane.locator("[role=option]");
    const codes: string[] = [];
    for (const index of [0, 1, 2]) {
      await rows.nth(index).getByTestId("row-check").click();
      codes.push((await rows.nth(index).getAttribute("data-code")) ?? "");
    }
    // Table is the default kind; a year of months keeps three stacked tables on the 300-row sheet.
    expect(await pane.getByRole("radio", { name: "Table" }).isChecked()).toBe(true);
    await pane.locator("input[name=startMonth]").fill("2025-01");
    await pane.locator("input[name=endMonth]").fill("2025-12");
    await pane.locator("select[name=stack]").selectOption(stack);
    // Finals only: two columns a table, so three side by side fit the preview's eight columns.
    if (stack === "beside") await pane.locator("select[name=forecast]").selectOption("0");
    const layout = stack === "beside" ? "side by side" : "one empty row apart";
    await pane.getByText(`Insert for 3 series (a table each, ${layout})`).waitFor();
    await page.evaluate(() => window.__pcdPreview.select("A1"));
    await pane.getByRole("button", { name: "Insert 3 formulas" }).click();
    const said = pane.getByTestId("insert-footer").locator("[role=status], [role=alert]");
    await said.waitFor();
    const summary = (await said.textContent()) ?? "";
    expect(summary).toMatch(/^Inserted 3 tables: /);
    const ranges = /^Inserted 3 tables: (.+)\.$/.exec(summary)?.[1]?.split(", ");
    expect(ranges).toHaveLength(3);
    const tables = (ranges ?? []).map(area);
    const anchors = tables.map((table) => cellName(table.top, table.left));
    await settled(page, anchors);
    // The cells settle: every table spilled, nothing busy, nothing blocked.
    await page.waitForFunction(
      (cells) => cells.every((cell) => !window.__pcdPreview.cell(cell).busy),
      anchors,
    );
    const grid = await page.evaluate(() => window.__pcdPreview.sheet("Sheet1"));
    expect(grid.flat().filter((text) => text.startsWith("#"))).toEqual([]);

    for (const [index, table] of tables.entries()) {
      expect(await content(page, anchors[index]!)).toMatch(
        new RegExp(`^=PCD\\.VALUES\\("${codes[index]}",.*"2025-01","2025-12"`),
      );
      // The range named is the table's whole extent: filled to its last row and column, nothing past it.
      const block = grid
        .slice(table.top, table.bottom + 1)
        .map((row) => row.slice(table.left, table.right + 1));
      expect(block.flat().every((text) => text !== "")).toBe(true);
      expect(
        grid[table.bottom + 1]?.slice(table.left, table.right + 1).every((text) => text === "") ?? true,
      ).toBe(true);
      const next = tables[index + 1];
      if (!next) continue;
      if (stack === "below") {
        expect([next.top, next.left]).toEqual([table.bottom + 2, table.left]);
      } else {
        expect([next.top, next.left]).toEqual([table.top, table.right + 2]);
        expect(grid.every((row) => (row[table.right + 1] ?? "") === "")).toBe(true);
      }
    }
    await screenshot(page, `insert-three-tables-${stack}`);
  });
});

test("restore after an edit: the edited cell is named, typed back as shown it restores, two edits restore anyway after a confirmation", async () => {
  const preview = await open();
  const { page, pane } = preview;
  await signIn(fixture, pane);
  // Quarterly averages: six quarters, values with more digits than a General cell shows.
  const formula = `=PCD.VALUES("${PRICED}",,,"2024-01","2025-06",0,0,0,"Q")`;
  await page.evaluate((text) => window.__pcdPreview.enter("A1", text), formula);
  await settled(page, ["A1", "B6"]);
  const shown = await page.evaluate(() => window.__pcdPreview.texts("A1:B6"));
  await pane.getByRole("tab", { name: "Usage" }).click();
  const outcome = pane.getByTestId("freeze-outcome");
  const freeze = async (): Promise<void> => {
    await pane.getByRole("button", { name: "Freeze workbook" }).click();
    await outcome.filter({ hasText: "Froze 1 PCD cell" }).waitFor();
    expect(await content(page, "A1")).not.toMatch(/^=/);
  };
  await freeze();
  const record = (await page.evaluate(() => window.__pcdPreview.setting("pcd.frozen"))) as {
    cells: Array<{ range: string; values: unknown[][] }>;
  };
  expect(record.cells.map((cell) => cell.range)).toEqual(["Sheet1!A1:B6"]);
  // A value the cell shows shorter than it holds: typed back as shown, it must still count as unchanged.
  const row = record.cells[0]!.values.findIndex(
    (values, index) => typeof values[1] === "number" && String(values[1]) !== shown[index]?.[1],
  );
  expect(row).toBeGreaterThanOrEqual(0);
  const edited = `B${row + 1}`;
  const asShown = shown[row]![1]!;

  await typeInto(page, edited, "123");
  await pane.getByRole("button", { name: "Restore all" }).click();
  await outcome.filter({ hasText: "Not restored" }).waitFor();
  expect(await outcome.textContent()).toContain(
    `Not restored, Sheet1!A1:B6 changed since the freeze in one cell: ${edited} (frozen ${asShown}, now 123).`,
  );
  await pane.getByRole("button", { name: "Restore Sheet1!A1:B6 anyway…" }).waitFor();
  expect(await content(page, "A1")).not.toMatch(/^=/);

  await typeInto(page, edited, asShown);
  await pane.getByRole("button", { name: "Restore all" }).click();
  await outcome.filter({ hasText: "Restored 1 formula." }).waitFor();
  expect(await outcome.textContent()).not.toContain("Not restored");
  expect(await content(page, "A1")).toBe(formula);
  await settled(page, ["A1", "B6"]);

  await freeze();
  await typeInto(page, "B2", "1");
  await typeInto(page, "B4", "2");
  await pane.getByRole("button", { name: "Restore all" }).click();
  await outcome.filter({ hasText: "Not restored" }).waitFor();
  expect(await outcome.textContent()).toContain(
    `changed since the freeze in 2 cells: B2 (frozen ${shown[1]![1]}, now 1), B4 (frozen ${shown[3]![1]}, now 2).`,
  );
  await pane.getByRole("button", { name: "Restore Sheet1!A1:B6 anyway…" }).click();
  const confirm = pane.getByTestId("restore-anyway");
  expect(await confirm.locator("li").allTextContents()).toEqual([
    `B2 (frozen ${shown[1]![1]}, now 1)`,
    `B4 (frozen ${shown[3]![1]}, now 2)`,
  ]);
  await screenshot(page, "restore-anyway");
  await confirm.getByRole("button", { name: "Overwrite these 2 cells" }).click();
  await outcome.filter({ hasText: "Restored 1 formula." }).waitFor();
  expect(await content(page, "A1")).toBe(formula);
  expect(await content(page, "B2")).toBe("");
  await settled(page, ["A1", "B6"]);
  expect(await page.evaluate(() => window.__pcdPreview.texts("A1:B6"))).toEqual(shown);
  expect(await page.evaluate(() => window.__pcdPreview.setting("pcd.frozen"))).toMatchObject({ cells: [] });
});

test("a release whose report does not fit the 300-row sheet: Write report says nothing was written and adds no sheet", async () => {
  const preview = await open();
  const { page, pane } = preview;
  await signIn(fixture, pane);
  // One series asked for in two units: its whole history revised twice over is more than 300 rows.
  await page.evaluate((code) => {
    window.__pcdPreview.enter("A1", `=PCD.VALUES("${code}","EUR","MWh",,,0,0,1)`);
    window.__pcdPreview.enter("D1", `=PCD.VALUES("${code}","EUR","MMBtu",,,0,0,1)`);
  }, PRICED);
  await settled(page, ["A1", "D1"]);
  await pane.getByRole("tab", { name: "Usage" }).click();
  await pane.getByTestId("refresh-cost").waitFor();
  await fixture.admin("/__admin/release", { revise: [PRICED] });
  const section = pane.getByRole("region", { name: "Refresh this workbook" });
  await section.getByRole("button", { name: "Refresh all" }).click();
  const changes = section.getByTestId("release-changes");
  await changes.waitFor({ timeout: 30_000 });
  expect(await changes.locator("p, span").first().textContent()).toMatch(
    /What changed: 1 new month, \d+ revised months in 1 series/,
  );
  const sheetsBefore = await page.evaluate(() => window.__pcdPreview.sheetNames());

  await changes.getByRole("button", { name: "Write report" }).click();
  const said = changes.getByRole("alert");
  await said.waitFor();
  expect(await said.textContent()).toMatch(
    /^The report could not be written: The report needs \d{3,} rows; a sheet here holds 300\. Nothing was written\. /,
  );
  expect(await page.evaluate(() => window.__pcdPreview.sheetNames())).toEqual(sheetsBefore);
  expect(sheetsBefore.some((name) => name.startsWith("PCD changes"))).toBe(false);
  await screenshot(page, "report-too-large");
});

test("the 300-row sheet puts its rows in the page as they are reached: by content, by the selection, by scrolling to the end", async () => {
  const { page } = await open();
  const rowsInPage = (): Promise<number> => page.locator("#sheet table.grid tbody tr").count();
  expect(await rowsInPage()).toBe(40);
  await page.evaluate(() => window.__pcdPreview.enter("B60", "12"));
  await page.locator('td[data-address="B60"]').filter({ hasText: "12" }).waitFor();
  expect(await rowsInPage()).toBe(80);
  await page.evaluate(() => window.__pcdPreview.select("C100"));
  await page.locator('td[data-address="C100"].active').waitFor();
  expect(await rowsInPage()).toBe(120);
  await page.locator("#sheet").evaluate((sheet) => sheet.scrollTo(0, sheet.scrollHeight));
  await page.locator('td[data-address="A140"]').waitFor();
  expect(await rowsInPage()).toBe(140);
  await page.evaluate(() => window.__pcdPreview.select("A300"));
  await page.locator('td[data-address="A300"].active').waitFor();
  expect(await rowsInPage()).toBe(300);
});
