// `npm run screenshots`: regenerates docs/screenshots from the browser tests' own fixture
// (the development build on 127.0.0.1, the in-process emulator, Debian's Chromium), so
// the pictures in README.md and docs/taskpane.md show the pane as it is. Each state is
// taken at the two widths Office gives a task pane: 320 px and 450 px. Scene names as
// arguments (`npm run screenshots -- edit-cell`) take only those. The outage walk
// (`outage`, `release`, `recovery`: test/e2e/support/outage-walk.ts) runs against an
// emulator of its own, and its outage is also taken with the grid beside the pane, where
// the waiting cell's reason shows (`outage-page.png`).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  openPreview,
  QUIET_DAY,
  signIn,
  startPreviewFixture,
  type PreviewFixture,
  type PreviewPage,
} from "../test/e2e/support/preview-fixture";
import { startOutageWalk, WALK_STEPS, type WalkStep } from "../test/e2e/support/outage-walk";
import type { Locator } from "playwright-core";

const OUT = path.resolve(__dirname, "../docs/screenshots");
const WIDTHS = [320, 450] as const;
const HEIGHT = 900;

type Scene = (fixture: PreviewFixture, preview: PreviewPage) => Promise<void>;

async function search(preview: PreviewPage, text: string): Promise<void> {
  await preview.pane.getByRole("searchbox", { name: "Search series" }).fill(text);
  await preview.pane
    .getByTestId("series-count")
    .filter({ hasText: `for "${text}"` })
    .waitFor();
}

/** Each scene leaves the pane in the state its picture shows. */
const SCENES: Record<string, Scene> = {
  "first-run": async (_fixture, preview) => {
    await preview.pane.getByTestId("first-run").waitFor();
  },
  search: async (fixture, preview) => {
    await signIn(fixture, preview.pane);
    await search(preview, "ethylene");
    await preview.pane.locator("[role=option]").first().click();
    await preview.pane.getByTestId("series-details").waitFor();
  },
  "search-empty": async (fixture, preview) => {
    await signIn(fixture, preview.pane);
    await search(preview, "ethylene");
    await preview.pane.getByRole("tab", { name: /^Energy/ }).click();
    await preview.pane.getByTestId("series-empty").waitFor();
  },
  refresh: async (fixture, preview) => {
    await signIn(fixture, preview.pane);
    await search(preview, "gas germany");
    const code = await preview.pane.locator("[role=option]").first().getAttribute("data-code");
    await preview.page.evaluate(
      (formula) => window.__pcdPreview.enter("A1", formula),
      `=PCD.VALUES("${code}")`,
    );
    await preview.pane.getByRole("tab", { name: "Usage" }).click();
    const section = preview.pane.getByRole("region", { name: "Refresh this workbook" });
    await section.getByRole("button", { name: "Refresh all" }).click();
    await section.getByTestId("refresh-summary").waitFor({ timeout: 30_000 });
  },
  "edit-cell": async (fixture, preview) => {
    await signIn(fixture, preview.pane);
    await preview.pane.getByRole("tab", { name: "Series" }).click();
    await preview.page.evaluate(() => {
      window.__pcdPreview.enter("B2", '=PCD.VALUES("68520-8-1","EUR",,DATE(2024,1,1),,2,0)');
      window.__pcdPreview.select("A1");
      window.__pcdPreview.select("B2");
    });
    await preview.pane.getByTestId("edit-cell").waitFor();
  },
  // Freeze: the Usage tab after Freeze sheet, the sources sheet under the grid.
  freeze: async (fixture, preview) => {
    await signIn(fixture, preview.pane);
    await freezeSheet(preview);
    await preview.pane.getByRole("region", { name: "Share this workbook" }).scrollIntoViewIfNeeded();
  },
  // The release's changes under the refresh summary, with Write report (moves the emulator a release on).
  "release-changes": async (fixture, preview) => {
    await releaseChanges(fixture, preview);
    await preview.pane.getByTestId("release-changes").scrollIntoViewIfNeeded();
  },
};

/** Two PCD cells (a table and a value) frozen with the Usage tab's Freeze sheet. */
async function freezeSheet(preview: PreviewPage): Promise<void> {
  await preview.page.evaluate(() => {
    window.__pcdPreview.enter("A1", '=PCD.VALUES("68520-8-1",,,"2025-01","2025-06",1,0)');
    window.__pcdPreview.enter("D1", '=PCD.VALUE("68520-8-1","2025-06")');
  });
  await preview.page.waitForFunction(() =>
    ["A1", "D1"].every(
      (cell) => !window.__pcdPreview.cell(cell).busy && window.__pcdPreview.cell(cell).text !== "",
    ),
  );
  await preview.pane.getByRole("tab", { name: "Usage" }).click();
  await preview.pane.getByRole("button", { name: "Freeze sheet" }).click();
  await preview.pane.getByTestId("freeze-outcome").filter({ hasText: "Froze" }).waitFor();
}

async function releaseChanges(fixture: PreviewFixture, preview: PreviewPage): Promise<void> {
  await signIn(fixture, preview.pane);
  await preview.page.evaluate(() => {
    window.__pcdPreview.enter("A1", '=PCD.VALUES("68520-8-1",,,,,0,0,1)');
  });
  await preview.page.waitForFunction(
    () => !window.__pcdPreview.cell("A1").busy && window.__pcdPreview.cell("A1").text !== "",
  );
  await preview.pane.getByRole("tab", { name: "Usage" }).click();
  await preview.pane.getByTestId("refresh-cost").waitFor();
  await fixture.admin("/__admin/release", { revise: ["68520-8-1"] });
  const section = preview.pane.getByRole("region", { name: "Refresh this workbook" });
  await section.getByRole("button", { name: "Refresh all" }).click();
  await section.getByTestId("release-changes").waitFor({ timeout: 30_000 });
}

/** Pictures of one element of the wide page (the sheets PCD writes). */
const ELEMENT_SHOTS: Record<string, (fixture: PreviewFixture, preview: PreviewPage) => Promise<Locator>> = {
  "pcd-sources-sheet": async (fixture, preview) => {
    await signIn(fixture, preview.pane);
    await freezeSheet(preview);
    return preview.page.getByTestId("other-sheets").getByRole("region", { name: "PCD sources" });
  },
  // A PCD.SERIES card in the grid (the preview marks a card cell; its properties are the
  // cell's tooltip there, the card itself is Excel's), a PCD.VALUE of it below.
  "series-card": async (fixture, preview) => {
    await signIn(fixture, preview.pane);
    await preview.page.evaluate(() => window.__pcdPreview.enter("B2", '=PCD.SERIES("68520-8-1")'));
    await preview.page.evaluate(() => window.__pcdPreview.enter("B3", '=PCD.VALUE("68520-8-1")'));
    await preview.page.waitForFunction(() =>
      ["B2", "B3"].every((address) => {
        const shown = window.__pcdPreview.cell(address);
        return shown.text !== "" && !shown.busy;
      }),
    );
    await preview.page.evaluate(() => window.__pcdPreview.select("B2"));
    return preview.page.locator("body");
  },
  "release-report-sheet": async (fixture, preview) => {
    await releaseChanges(fixture, preview);
    await preview.pane.getByRole("button", { name: "Write report" }).click();
    const report = preview.page.getByTestId("other-sheets").locator("[data-sheet^='PCD changes']");
    await report.waitFor();
    // The top of the report: the biggest changes.
    await report.evaluate((section) => {
      for (const row of [...section.querySelectorAll("tr")].slice(16)) row.remove();
    });
    return report;
  },
};

/** One step of the outage walk, at the pane's two widths (the outage also with the grid). */
async function walkShots(fixture: PreviewFixture, step: WalkStep): Promise<string[]> {
  const written: string[] = [];
  const shots: Array<{ width: number; file: string }> = WIDTHS.map((width) => ({
    width,
    file: `${step}-${width}.png`,
  }));
  if (step === "outage") shots.push({ width: 1100, file: "outage-page.png" });
  for (const { width, file } of shots) {
    const walk = await startOutageWalk(QUIET_DAY);
    const preview = await openPreview(fixture, { width, height: width > 450 ? 700 : HEIGHT });
    try {
      await walk.walk(preview, step, async (reached, page) => {
        if (reached !== step) return;
        await page.page.waitForTimeout(300);
        const target = path.join(OUT, file);
        await page.page.screenshot({ path: target });
        written.push(path.relative(process.cwd(), target));
      });
      if (preview.errors.length > 0) throw new Error(`${file}: ${preview.errors.join("; ")}`);
    } finally {
      await preview.close();
      await walk.close();
    }
  }
  return written;
}

/** The shots named on the command line (none: all of them); an unknown name is refused before anything starts. */
function chosenShots(argv: readonly string[]): string[] {
  const { positionals } = parseArgs({ args: [...argv], options: {}, strict: true, allowPositionals: true });
  const known = [...Object.keys(SCENES), ...WALK_STEPS, "preview-page", ...Object.keys(ELEMENT_SHOTS)];
  const unknown = positionals.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown shot ${unknown.map((name) => `'${name}'`).join(", ")}; known: ${known.join(", ")}`,
    );
  }
  return positionals;
}

async function main(): Promise<void> {
  const only = chosenShots(process.argv.slice(2));
  mkdirSync(OUT, { recursive: true });
  const fixture = await startPreviewFixture();
  const written: string[] = [];
  try {
    for (const [name, scene] of Object.entries(SCENES)) {
      if (only.length > 0 && !only.includes(name)) continue;
      for (const width of WIDTHS) {
        const preview = await openPreview(fixture, { width, height: HEIGHT });
        try {
          await scene(fixture, preview);
          // Let transitions and the virtualised list settle before the picture.
          await preview.page.waitForTimeout(300);
          const file = path.join(OUT, `${name}-${width}.png`);
          await preview.page.screenshot({ path: file });
          written.push(path.relative(process.cwd(), file));
          if (preview.errors.length > 0)
            throw new Error(`${name} at ${width} px: ${preview.errors.join("; ")}`);
        } finally {
          await preview.close();
        }
      }
    }
    for (const step of WALK_STEPS) {
      if (only.length > 0 && !only.includes(step)) continue;
      written.push(...(await walkShots(fixture, step)));
    }
    // The preview page itself: grid and pane side by side, a cell's message under the formula bar.
    const wide =
      only.length === 0 || only.includes("preview-page")
        ? await openPreview(fixture, { width: 1100, height: 700 })
        : null;
    if (wide)
      try {
        await signIn(fixture, wide.pane);
        await wide.page.evaluate(() => window.__pcdPreview.enter("B2", "=PCD.VALUES(68520-8-1)"));
        await wide.page.evaluate(() => window.__pcdPreview.select("B2"));
        await wide.page.getByTestId("cell-message").filter({ hasText: "#VALUE!" }).waitFor();
        const file = path.join(OUT, "preview-page.png");
        await wide.page.screenshot({ path: file });
        written.push(path.relative(process.cwd(), file));
      } finally {
        await wide.close();
      }
    for (const [name, shoot] of Object.entries(ELEMENT_SHOTS)) {
      if (only.length > 0 && !only.includes(name)) continue;
      const preview = await openPreview(fixture, { width: 1100, height: 700 });
      try {
        const element = await shoot(fixture, preview);
        const file = path.join(OUT, `${name}.png`);
        await element.screenshot({ path: file });
        written.push(path.relative(process.cwd(), file));
        if (preview.errors.length > 0) throw new Error(`${name}: ${preview.errors.join("; ")}`);
      } finally {
        await preview.close();
      }
    }
  } finally {
    await fixture.close();
  }
  console.log(`Wrote ${written.length} screenshots:\n  ${written.join("\n  ")}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
