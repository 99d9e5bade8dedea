// A newcomer's first hour, in Chromium on the preview page against the
// in-process emulator: the first-run panel, search across products, the layout at 320 and
// 450 px, focus and validation, an axe-core scan, and the preview's own cell messages.
import type { Page } from "playwright-core";
import {
  fillSignIn,
  openPreview,
  screenshot,
  signedIn,
  signIn,
  startPreviewFixture,
  type PreviewFixture,
  type PreviewPage,
} from "./support/preview-fixture";
import { newTestContext } from "./support/browser";
import { seriousViolations } from "./support/axe";

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

async function open(options: Parameters<typeof openPreview>[1] = {}): Promise<PreviewPage> {
  const preview = await openPreview(fixture, options);
  opened.push(preview);
  return preview;
}

async function search(preview: PreviewPage, text: string): Promise<void> {
  await preview.pane.getByRole("searchbox", { name: "Search series" }).fill(text);
  await preview.pane
    .getByTestId("series-count")
    .filter({ hasText: `for "${text}"` })
    .waitFor();
}

function activeTestId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null);
}

describe("first run", () => {
  test("before sign-in: what PCD does, the five functions, help, where accounts come from, the emulator account", async () => {
    const preview = await open({ width: 450 });
    const panel = preview.pane.getByTestId("first-run");
    await panel.waitFor();
    const text = (await panel.textContent()) ?? "";
    expect(text).toMatch(/monthly price and cost series/);
    for (const name of ["PCD.VALUES(", "PCD.VALUE(", "PCD.INFO(", "PCD.SEARCH(", "PCD.LIMITS("])
      expect(text).toContain(name);
    expect(await panel.getByRole("listitem").count()).toBe(5);
    expect(text).toMatch(/account manager/);
    // A development build names the emulator's account (production bundles do not: test/build).
    expect(await preview.pane.getByTestId("first-run-emulator").textContent()).toContain(
      fixture.emulator.username,
    );
    for (const link of [panel.getByRole("link", { name: /Help/ }), preview.pane.getByTestId("help-link")]) {
      expect(await link.getAttribute("href")).toBe("help.html");
      expect(await link.getAttribute("target")).toBe("_blank");
    }
    const help = await fetch(`${fixture.site.url}/help.html`);
    expect(help.status).toBe(200);
    expect(await help.text()).toContain("PCD.VALUES");
    // The section is named in words, not by an internal id.
    expect(await preview.pane.getByTestId("pane-content").getAttribute("aria-label")).toBe("Sign in");
  });
});

describe("search across products", () => {
  test("a search covers every product, grouped with a count each; a product tab filters; empty tabs say where the hits are", async () => {
    const preview = await open({ width: 450 });
    await signIn(fixture, preview.pane);
    await search(preview, "ethylene");
    // The Commodities tab carries the search's count once the list is drawn.
    await preview.pane.getByRole("tab", { name: /^Commodities \(\d+\)$/ }).waitFor();
    const summary = (await preview.pane.getByTestId("series-count").textContent()) ?? "";
    const commodities = Number(
      /(\d+) in Commodities/.exec(summary)?.[1] ?? /^(\d+) series/.exec(summary)?.[1],
    );
    expect(commodities).toBeGreaterThan(0);
    const products = await preview.pane
      .locator("[role=option]")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-code")));
    expect(products.length).toBeGreaterThan(0);
    expect(await preview.pane.getByRole("tab", { name: `Commodities (${commodities})` }).count()).toBe(1);
    // The Energy tab as a filter: nothing there, and the message says where to look.
    await preview.pane.getByRole("tab", { name: /^Energy \(0\)$/ }).click();
    const empty = preview.pane.getByTestId("series-empty");
    await empty.waitFor();
    expect((await empty.textContent())?.trim()).toBe(
      `No series match "ethylene" in Energy; ${commodities} in Commodities. Choose Commodities, or All, to see them.`,
    );
    await screenshot(preview.page, "search-empty-energy");
    await preview.pane.getByRole("tab", { name: /^Commodities/ }).click();
    await preview.pane.locator("[role=option]").first().waitFor();
    expect(await preview.pane.getByTestId("series-empty").count()).toBe(0);
  });

  test("a search over several products shows a heading per product; a search without hits says what to try", async () => {
    const preview = await open({ width: 450 });
    await signIn(fixture, preview.pane);
    await search(preview, "germany");
    // Germany is a coverage in all three products: one group each, in the tabs' order. The line
    // may first show the search's total while the per-product counts are made: read it once it
    // names all three.
    const counts = preview.pane
      .getByTestId("series-count")
      .filter({ hasText: /\d+ in Energy.*\d+ in Commodities.*\d+ in Industry/ });
    await counts.waitFor();
    const summary = (await counts.textContent()) ?? "";
    const perProduct = [...summary.matchAll(/(\d+) in (Energy|Commodities|Industry)/g)].map((m) => [
      m[2],
      m[1],
    ]);
    expect(perProduct.map(([product]) => product)).toEqual(["Energy", "Commodities", "Industry"]);
    // The list is virtualised: the first group's heading is on screen, with its count.
    const first = preview.pane.getByTestId("product-heading").first();
    expect(await first.textContent()).toBe(`Energy · ${perProduct[0]?.[1]}`);
    // The keyboard moves over series only: End reaches the last series, an Industry one.
    await preview.pane.getByTestId("series-list").focus();
    await preview.page.keyboard.press("End");
    const last = await preview.pane.getByTestId("series-list").getAttribute("aria-activedescendant");
    const total = perProduct.reduce((sum, [, count]) => sum + Number(count), 0);
    expect(last).toMatch(new RegExp(`-option-${total - 1}$`));
    await search(preview, "qqqzzz");
    const empty = preview.pane.getByTestId("series-empty");
    await empty.waitFor();
    expect(await empty.textContent()).toMatch(
      /^No series match "qqqzzz" in any product\. Try fewer or other words, or search by code/,
    );
  });
});

describe("layout", () => {
  test("the list grows with the pane and the insert footer stays in view with its confirmation", async () => {
    const preview = await open({ width: 450, height: 1000 });
    await signIn(fixture, preview.pane);
    await search(preview, "gas");
    const list = preview.pane.getByTestId("series-list");
    expect((await list.boundingBox())!.height).toBeGreaterThan(400);
    await preview.pane.locator("[role=option]").first().click();
    await preview.pane.getByTestId("series-details").waitFor();
    const footer = preview.pane.getByTestId("insert-footer");
    const inView = async (): Promise<boolean> => {
      const box = await footer.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 1000 + 1;
    };
    expect(await inView()).toBe(true);
    await preview.pane.getByRole("button", { name: "Insert into selected cell" }).click();
    await preview.pane.getByText(/^Inserted 1 formula into Sheet1!A1\.$/).waitFor();
    expect(await inView()).toBe(true);
    expect(await footer.getByRole("status").textContent()).toMatch(/Inserted 1 formula/);
    await screenshot(preview.page, "layout-450");
  });

  test("at 320 px nothing is cut without a tooltip, and Finals and forecasts fits its select", async () => {
    const preview = await open({ width: 320, height: 800 });
    await signIn(fixture, preview.pane);
    await search(preview, "gas");
    await preview.pane.locator("[role=option]").first().click();
    await preview.pane.getByTestId("series-details").waitFor();
    const problems = await preview.page.evaluate(() => {
      const found: string[] = [];
      const canvas = document.createElement("canvas").getContext("2d")!;
      for (const element of document.querySelectorAll<HTMLElement>("#root *")) {
        const style = getComputedStyle(element);
        if (style.display === "none" || element.offsetParent === null) continue;
        const cut = style.textOverflow === "ellipsis" && element.scrollWidth > element.clientWidth + 1;
        const titled = element.closest("[title]")?.getAttribute("title");
        if (cut && !titled) found.push(`cut without tooltip: ${element.textContent?.slice(0, 40)}`);
      }
      for (const select of document.querySelectorAll<HTMLSelectElement>("#root select")) {
        const style = getComputedStyle(select);
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const label = select.selectedOptions[0]?.textContent ?? "";
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        if (canvas.measureText(label).width > room && !select.title) found.push(`select cut: ${label}`);
      }
      return found;
    });
    expect(problems).toEqual([]);
    const forecast = preview.pane.locator("select[name=forecast]");
    expect(
      await forecast.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent),
    ).toBe("Finals and forecasts");
    const fits = await forecast.evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const context = document.createElement("canvas").getContext("2d")!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return context.measureText("Finals and forecasts").width <= room;
    });
    expect(fits).toBe(true);
  });

  test("Refresh all on the Usage tab shows progress and summary under the button; usage lists this workbook's datasets first, with a filter", async () => {
    const preview = await open({ width: 450 });
    await signIn(fixture, preview.pane);
    await search(preview, "gas germany");
    const code = await preview.pane.locator("[role=option]").first().getAttribute("data-code");
    await preview.page.evaluate(
      (formula) => window.__pcdPreview.enter("A1", formula),
      `=PCD.VALUE("${code}")`,
    );
    await preview.page.waitForFunction(() => {
      const cell = window.__pcdPreview.cell("A1");
      return cell.text !== "" && !cell.busy;
    });
    await preview.pane.getByRole("tab", { name: "Usage" }).click();
    const ours = preview.pane.getByTestId("usage-workbook");
    await ours.waitFor();
    expect(await ours.locator("[data-dataset]").count()).toBeGreaterThanOrEqual(1);
    const refreshSection = preview.pane.getByRole("region", { name: "Refresh this workbook" });
    await refreshSection.getByRole("button", { name: "Refresh all" }).click();
    await refreshSection.getByTestId("refresh-summary").waitFor({ timeout: 30_000 });
    // Not also at the top of the pane, far from the button.
    expect(await preview.pane.getByTestId("refresh-summary").count()).toBe(1);
    await screenshot(preview.page, "refresh-usage");
    const filter = preview.pane.getByRole("searchbox", { name: "Filter datasets" });
    await filter.fill("no such dataset");
    await preview.pane.getByTestId("usage-filter-empty").waitFor();
    expect(await preview.pane.locator("[data-dataset]").count()).toBe(0);
    await filter.fill("");
    expect(await preview.pane.locator("[data-dataset]").count()).toBeGreaterThan(0);
  });
});

describe("focus, validation and accessibility", () => {
  test("an empty form gets Fluent's messages (no browser bubble) and the focus on the first empty field", async () => {
    const preview = await open({ width: 450 });
    await preview.pane.getByRole("button", { name: "Sign in" }).click();
    await preview.pane.getByText("Enter your PCD username (usually your email address).").waitFor();
    await preview.pane.getByText("Enter your PCD password.").waitFor();
    expect(await preview.pane.locator("form").getAttribute("novalidate")).not.toBeNull();
    expect(await preview.page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("username");
  });

  test("focus moves to the error after a failed sign-in, and to the pane's content after sign-in", async () => {
    const preview = await open({ width: 450 });
    await fillSignIn(fixture, preview.pane, { password: "not-the-password" });
    await preview.pane.getByTestId("sign-in-error").waitFor();
    await preview.page.waitForFunction(
      () => document.activeElement?.getAttribute("data-testid") === "sign-in-error",
    );
    expect(await preview.pane.getByTestId("sign-in-error").textContent()).not.toMatch(/service said/i);
    await preview.pane.getByLabel("Password").fill(fixture.emulator.password);
    await preview.pane.getByRole("button", { name: "Sign in" }).click();
    await signedIn(preview.pane);
    await preview.page.waitForFunction(
      () => document.activeElement?.getAttribute("data-testid") === "pane-content",
    );
    expect(await activeTestId(preview.page)).toBe("pane-content");
    expect(await preview.pane.getByTestId("pane-content").getAttribute("aria-label")).toBe("Series");
  });

  test("the scan can fail: an unlabelled field and a focusable hidden control are reported", async () => {
    const context = await newTestContext(fixture.browser);
    try {
      const page = await context.newPage();
      await page.setContent(
        '<main id="root"><input type="text"><div aria-hidden="true"><button>x</button></div></main>',
      );
      const found = await seriousViolations(page);
      expect(found.some((v) => v.startsWith("label "))).toBe(true);
      expect(found.some((v) => v.startsWith("aria-hidden-focus "))).toBe(true);
    } finally {
      await context.close();
    }
  });

  test.each([320, 450])("axe-core finds no serious or critical violation at %i px", async (width) => {
    const preview = await open({ width, height: 900 });
    const { page, pane } = preview;
    await pane.getByTestId("first-run").waitFor();
    const found: string[] = [];
    found.push(...(await seriousViolations(page)).map((v) => `sign in: ${v}`));
    await signIn(fixture, pane);
    await search(preview, "gas germany");
    await pane.locator("[role=option]").first().click();
    await pane.getByTestId("series-details").waitFor();
    found.push(...(await seriousViolations(page)).map((v) => `series: ${v}`));
    await pane.getByRole("tab", { name: "Usage" }).click();
    await pane.getByTestId("refresh-cost").waitFor();
    found.push(...(await seriousViolations(page)).map((v) => `usage: ${v}`));
    await pane.getByRole("tab", { name: "Status" }).click();
    await pane.getByTestId("service-state").waitFor();
    found.push(...(await seriousViolations(page)).map((v) => `status: ${v}`));
    await pane.getByRole("tab", { name: "Account" }).click();
    await pane.getByTestId("account-user").waitFor();
    found.push(...(await seriousViolations(page)).map((v) => `account: ${v}`));
    expect(found).toEqual([]);
  });
});

describe("preview page", () => {
  test("an unquoted code gets the functions' arithmetic hint, shown next to the formula bar", async () => {
    const preview = await open({ width: 1100 });
    await signIn(fixture, preview.pane);
    await preview.page.evaluate(() => window.__pcdPreview.enter("B2", "=PCD.VALUES(68520-8-1)"));
    await preview.page.evaluate(() => window.__pcdPreview.select("B2"));
    const message = preview.page.getByTestId("cell-message");
    await message.filter({ hasText: "#VALUE!" }).waitFor();
    expect(await message.textContent()).toMatch(
      /^B2: #VALUE! The code arrived as the number 68511: Excel computed/,
    );
    const bar = (await preview.page.locator(".formula-bar").boundingBox())!;
    const box = (await message.boundingBox())!;
    const grid = (await preview.page.locator("table.grid").boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
    expect(box.y + box.height).toBeLessThanOrEqual(grid.y + 1);
  });
});
