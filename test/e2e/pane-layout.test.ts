// The Series tab at Office's narrowest (320 px) and a common (450 px) pane width, in
// Chromium on the preview page against the in-process emulator: inserting, then editing a
// PCD cell, then moving on. Every control of the insert bar and the edit form can be
// scrolled into view uncovered and uncut, the edit form's fields sit on one grid, the
// insert footer shows the current selection's state only, and axe finds nothing serious.
import {
  openPreview,
  screenshot,
  signIn,
  startPreviewFixture,
  type PreviewFixture,
  type PreviewPage,
} from "./support/preview-fixture";
import { seriousViolations } from "./support/axe";
import { controlProblems } from "./support/control-layout";

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

const INSERT_PARTS = ['section[aria-label="Insert formulas"]', '[data-testid="insert-footer"]'];
const EDIT_FORM = '[data-testid="edit-cell"]';
/** A call with every argument of PCD.VALUES filled: the edit form at its tallest. */
const EDITED = '=PCD.VALUES("68520-8-1","EUR","MWh","2024-01","2024-12",1,1,0,"monthly")';

describe.each([320, 450])("at %i px", (width) => {
  test("insert, edit a cell, move on: no control covered or cut, fields on one grid, no stale footer", async () => {
    const preview = await openPreview(fixture, { width, height: 700 });
    opened.push(preview);
    const { page, pane } = preview;
    await signIn(fixture, pane);
    await pane.getByRole("searchbox", { name: "Search series" }).fill("pipeline import price");
    await pane.getByTestId("series-count").filter({ hasText: 'for "pipeline import price"' }).waitFor();
    await pane.locator("[role=option]").first().click();
    await pane.getByTestId("series-details").waitFor();
    const unit = pane.locator("select[name=unit]");
    expect(await unit.evaluate((select: HTMLSelectElement) => select.options[0]?.textContent)).toBe(
      "Default (MMBtu)",
    );

    // Inserting: every chooser on a row of its own at 320 px, nothing covered or cut.
    expect(await controlProblems(page, INSERT_PARTS)).toEqual([]);
    if (width === 320) expect(await sharedRows(page, `${INSERT_PARTS[0]} select`)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await pane.getByRole("button", { name: "Insert into selected cell" }).click();
    await pane.getByText(/^Inserted 1 formula into Sheet1!A1\.$/).waitFor();

    // Editing another cell: its form, its own Update cell, and no insert footer at all.
    await page.evaluate((formula) => {
      window.__pcdPreview.enter("B2", formula);
      window.__pcdPreview.select("B2");
    }, EDITED);
    const form = pane.getByTestId("edit-cell");
    await form.getByText("Edit PCD.VALUES in B2").waitFor();
    expect(await pane.getByTestId("insert-footer").isVisible()).toBe(false);
    expect(await pane.getByText(/Inserted 1 formula/).count()).toBe(0);
    expect(await controlProblems(page, [EDIT_FORM, ...INSERT_PARTS])).toEqual([]);
    expect(await fieldColumns(page, EDIT_FORM)).toEqual({ inputs: 1, labels: 1, widths: 1 });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `pane-layout-edit-${width}`);
    await form.locator("input[name=edit-currency]").fill("USD");
    await form.getByRole("button", { name: "Update cell" }).click();
    await form.getByText("Updated B2.").waitFor();

    // Moving on to an empty cell: the footer is back, with nothing from before.
    await page.evaluate(() => window.__pcdPreview.select("C5"));
    await form.waitFor({ state: "detached" });
    const footer = pane.getByTestId("insert-footer");
    await footer.waitFor();
    expect(await footer.getByRole("status").count()).toBe(0);
    expect(await footer.textContent()).not.toMatch(/Inserted|Updated/);
    expect(await controlProblems(page, INSERT_PARTS)).toEqual([]);
    await screenshot(page, `pane-layout-insert-${width}`);
  });
});

/** Pairs of elements matching `selector` that share a row (their heights overlap). */
function sharedRows(page: PreviewPage["page"], selector: string): Promise<string[]> {
  return page.evaluate((query) => {
    const boxes = [...document.querySelectorAll<HTMLElement>(query)].map((element) => ({
      name: element.getAttribute("name") ?? element.tagName,
      box: element.getBoundingClientRect(),
    }));
    const shared: string[] = [];
    boxes.forEach((first, index) => {
      for (const second of boxes.slice(index + 1)) {
        if (first.box.top < second.box.bottom && second.box.top < first.box.bottom) {
          shared.push(`${first.name} and ${second.name}`);
        }
      }
    });
    return shared;
  }, selector);
}

/** How many distinct left edges the form's inputs and labels have, and input widths. */
function fieldColumns(
  page: PreviewPage["page"],
  selector: string,
): Promise<{ inputs: number; labels: number; widths: number }> {
  return page.evaluate((query) => {
    const form = document.querySelector(query)!;
    const distinct = (values: number[]): number => new Set(values.map((value) => Math.round(value))).size;
    const inputs = [...form.querySelectorAll("input")].map((input) => input.getBoundingClientRect());
    const labels = [...form.querySelectorAll("label")].map((label) => label.getBoundingClientRect());
    return {
      inputs: distinct(inputs.map((box) => box.left)),
      labels: distinct(labels.map((box) => box.left)),
      widths: distinct(inputs.map((box) => box.width)),
    };
  }, selector);
}
