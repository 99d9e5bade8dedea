// The task pane in Chromium, used the way a person uses it: the preview page (mock Excel
// host + the real bundles) against the in-process emulator.
import type { Page, Route } from "playwright-core";
import {
  fillSignIn,
  MAINTENANCE_DAY,
  openPreview,
  QUIET_DAY,
  screenshot,
  signedIn,
  signIn,
  startPreviewFixture,
  type PreviewFixture,
  type PreviewPage,
} from "./support/preview-fixture";
import { tabUntil, typeInto } from "./support/keyboard";
import { startEmulator } from "../../src/emulator";

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

async function open(options: Parameters<typeof openPreview>[1] = {}): Promise<PreviewPage> {
  const preview = await openPreview(fixture, options);
  opened.push(preview);
  return preview;
}

function writes(page: Page) {
  return page.evaluate(() => window.__pcdPreview.writes());
}

/** Waits until a cell shows something other than #BUSY! and returns it. */
async function settledCell(page: Page, address: string) {
  await page.waitForFunction((cell) => {
    const shown = window.__pcdPreview.cell(cell);
    return shown.text !== "" && !shown.busy;
  }, address);
  return page.evaluate((cell) => window.__pcdPreview.cell(cell), address);
}

async function searchAndWait(preview: PreviewPage, text: string): Promise<void> {
  await preview.pane.getByRole("searchbox", { name: "Search series" }).fill(text);
  await preview.pane
    .getByTestId("series-count")
    .filter({ hasText: `for "${text}"` })
    .waitFor();
}

function options(preview: PreviewPage) {
  return preview.pane.locator("[role=option]");
}

describe("sign in", () => {
  test("the right password signs in: user, environment and token lifetime shown, password gone", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane);
    await expectText(preview.pane.getByTestId("header-user"), fixture.emulator.username);
    await preview.pane.getByRole("tab", { name: "Account" }).click();
    await expectText(preview.pane.getByTestId("account-user"), fixture.emulator.username);
    expect(await preview.pane.getByTestId("token-lifetime").textContent()).toMatch(
      /Token valid for (1 h 59 min|2 h)/,
    );
    expect(await preview.pane.getByTestId("sandbox-badge").count()).toBe(0);
    // The password is nowhere on the page after sign-in.
    expect(await preview.page.content()).not.toContain(fixture.emulator.password);
    await screenshot(preview.page, "signed-in");
  });

  test("a page given back keeps nothing for the next test: signed out, its site data gone", async () => {
    const first = await open();
    await signIn(fixture, first.pane);
    await first.page.evaluate(async () => {
      localStorage.setItem("left-behind", "yes");
      sessionStorage.setItem("left-behind", "yes");
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.open("left-behind", 1);
        request.onupgradeneeded = () => request.result.createObjectStore("things");
        request.onsuccess = () => {
          request.result.close();
          resolve();
        };
        request.onerror = () => reject(request.error);
      });
    });
    expect(
      (await first.page.evaluate(() => indexedDB.databases())).map((database) => database.name),
    ).toContain("left-behind");
    expect(first.errors).toEqual([]);
    await first.close();
    opened = opened.filter((preview) => preview !== first);

    const next = await open();
    // The same browser page, loaded again: what this test checks is the clean-up itself.
    expect(next.page).toBe(first.page);
    await next.pane.getByRole("tab", { name: "Sign in" }).waitFor();
    expect(await next.pane.getByTestId("header-user").count()).toBe(0);
    const left = await next.page.evaluate(async () => ({
      local: localStorage.getItem("left-behind"),
      session: sessionStorage.getItem("left-behind"),
      databases: (await indexedDB.databases()).map((database) => database.name),
    }));
    expect(left).toEqual({
      local: null,
      session: null,
      databases: expect.not.arrayContaining(["left-behind"]),
    });
  });

  test.each([
    ["a wrong password", { password: "not-the-password" }, /Wrong username or password/],
    ["an unknown user", { username: "nobody@example.com" }, /Wrong username or password/],
  ])("%s gets a clear message and stays signed out", async (_name, credentials, message) => {
    const preview = await open();
    await fillSignIn(fixture, preview.pane, credentials);
    const alert = preview.pane.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(message);
    expect(await preview.pane.getByTestId("header-user").count()).toBe(0);
    await screenshot(preview.page, "sign-in-wrong-password");
  });

  test("an unreachable service says so and names the address", async () => {
    const preview = await open();
    await preview.pane.getByLabel("Username").fill("analyst");
    await preview.pane.getByLabel("Password").fill("secret");
    await preview.pane.getByRole("button", { name: "Advanced" }).click();
    await preview.pane.getByLabel("Service address").fill("http://127.0.0.1:9");
    await preview.pane.getByLabel("Token address").fill("http://127.0.0.1:9");
    await preview.pane.getByRole("button", { name: "Sign in" }).click();
    const alert = preview.pane.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/could not be reached/);
    expect(await alert.textContent()).toContain("http://127.0.0.1:9");
  });

  test("sandbox: a SANDBOX badge in the header, and the values are the sandbox's", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane, { environment: "Sandbox (test data)" });
    await preview.pane.getByTestId("sandbox-badge").first().waitFor();
    expect(await preview.pane.getByTestId("sandbox-badge").first().isVisible()).toBe(true);
    await searchAndWait(preview, "gas germany");
    await options(preview).first().click();
    await preview.pane.getByRole("radio", { name: "Value" }).check();
    await preview.page.evaluate(() => window.__pcdPreview.select("A1"));
    await preview.pane.getByRole("button", { name: "Insert into selected cell" }).click();
    const cell = await settledCell(preview.page, "A1");
    expect(cell.error).toBeNull();
    expect(Number(cell.text)).toBeLessThan(0); // sandbox values are dummy negative numbers
    await screenshot(preview.page, "sandbox");
  });
});

describe("series picker", () => {
  test("search, then insert a table into the selected cell: the grid shows it", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane);
    await searchAndWait(preview, "gas germany");
    expect(await options(preview).count()).toBeGreaterThan(0);
    // Every text the list's count line shows from here on: the data call below moves the
    // allowances, which must not send the list back to "Loading…".
    const countLine = preview.pane.getByTestId("series-count");
    const summary = await countLine.textContent();
    await countLine.evaluate((line) => {
      const shown: string[] = [];
      (window as unknown as { __countLine: string[] }).__countLine = shown;
      new MutationObserver(() => shown.push(line.textContent ?? "")).observe(line, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    const first = options(preview).first();
    const code = await first.getAttribute("data-code");
    await first.click();
    await preview.pane.getByTestId("series-details").waitFor();
    await preview.page.locator('#sheet td[data-address="C3"]').click();
    await preview.pane.getByRole("button", { name: "Insert into selected cell" }).click();
    await preview.pane.getByText("Inserted 1 formula into Sheet1!C3.").waitFor();
    expect(await writes(preview.page)).toEqual([
      { address: "Sheet1!C3", formulas: [[`=PCD.VALUES("${code}")`]] },
    ]);
    await settledCell(preview.page, "C3");
    const table = await preview.page.evaluate(() => window.__pcdPreview.texts("C3:E4"));
    expect(table[0]).toEqual(["Date", expect.stringMatching(/^Value \(\w+\/\w+\)$/), "Status"]);
    expect(table[1]?.[0]).toMatch(/^\d{4}-\d{2}-01$/); // dates shown as dates (formatted numbers)
    expect(Number(table[1]?.[1])).not.toBeNaN();
    // The allowances' change is announced before the cell's value; two frames let any
    // reload it started draw.
    await preview.page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    const shownSince = await preview.page.evaluate(
      () => (window as unknown as { __countLine: string[] }).__countLine,
    );
    expect(shownSince.filter((text) => text !== summary)).toEqual([]);
    await screenshot(preview.page, "search-insert");
  });

  test("a catalog of 1000+ series keeps only the visible rows in the page, and End reaches the last", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane);
    // One read of a count line: the line says Loading… again whenever the catalog reloads.
    const count = preview.pane.getByTestId("series-count").filter({ hasText: /^\d+ series/ });
    const total = Number((await count.textContent())!.split(" ")[0]);
    expect(total).toBeGreaterThan(1000);
    expect(await options(preview).count()).toBeLessThan(40);
    const list = preview.pane.getByRole("listbox");
    await list.focus();
    await preview.page.keyboard.press("End");
    const active = await list.getAttribute("aria-activedescendant");
    await preview.page.locator(`[id="${active}"]`).waitFor();
    expect(active).toMatch(new RegExp(`-option-${total - 1}$`));
    expect(await options(preview).count()).toBeLessThan(40);
  });

  test("the chosen currency and unit go into the formula, and the cell accepts them", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane);
    await searchAndWait(preview, "gas germany");
    await options(preview).first().click();
    const details = preview.pane.getByTestId("series-details");
    const currencies = (await details.locator('[data-field="available_currencies"]').textContent())!.split(
      ", ",
    );
    const units = (await details.locator('[data-field="available_units"]').textContent())!.split(", ");
    const defaultCurrency = await details.locator('[data-field="default_currency"]').textContent();
    const defaultUnit = await details.locator('[data-field="default_unit"]').textContent();
    const currency = currencies.find((each) => each !== defaultCurrency)!;
    const unit = units.find((each) => each !== defaultUnit)!;
    // The choosers offer exactly the series' lists (plus "series default").
    const offered = await preview.pane.locator("select[name=currency] option").allTextContents();
    expect(offered.slice(1)).toEqual(currencies);
    await preview.pane.locator("select[name=currency]").selectOption(currency);
    await preview.pane.locator("select[name=unit]").selectOption(unit);
    await preview.pane.getByRole("radio", { name: "Value" }).check();
    await preview.pane.getByLabel("Month (YYYY-MM)").fill("2024-03");
    await preview.page.evaluate(() => window.__pcdPreview.select("B2"));
    await preview.pane.getByRole("button", { name: "Insert into selected cell" }).click();
    await preview.pane.getByText("Inserted 1 formula into Sheet1!B2.").waitFor();
    const [write] = await writes(preview.page);
    expect(write?.formulas[0]?.[0]).toMatch(
      new RegExp(`^=PCD\\.VALUE\\("[\\d-]+","2024-03","${currency}","${unit}"\\)$`),
    );
    const cell = await settledCell(preview.page, "B2");
    expect(cell.error).toBeNull();
    expect(Number(cell.text)).not.toBeNaN();
  });

  test("edit a PCD cell: selecting it fills the form, Update cell rewrites it and keeps a DATE(...) as typed", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane);
    await preview.pane.getByRole("tab", { name: "Series" }).click();
    await preview.page.evaluate(() => {
      window.__pcdPreview.enter("B2", '=PCD.VALUE("68520-8-1",DATE(2024,3,1))');
      window.__pcdPreview.select("C5");
      window.__pcdPreview.select("B2");
    });
    const form = preview.pane.getByTestId("edit-cell");
    await form.getByText("Edit PCD.VALUE in B2").waitFor();
    expect(await form.locator("input[name=edit-code]").inputValue()).toBe("68520-8-1");
    expect(await form.locator("input[name=edit-date]").inputValue()).toBe("DATE(2024,3,1)");
    await form.getByText("kept as typed").waitFor();
    await form.locator("input[name=edit-currency]").fill("USD");
    await form.getByRole("button", { name: "Update cell" }).click();
    await form.getByText("Updated B2.").waitFor();
    const updated = '=PCD.VALUE("68520-8-1",DATE(2024,3,1),"USD")';
    expect(await preview.page.evaluate(() => window.__pcdPreview.cell("B2").content)).toBe(updated);
    expect((await writes(preview.page)).at(-1)).toEqual({ address: "Sheet1!B2", formulas: [[updated]] });
    const cell = await settledCell(preview.page, "B2");
    expect(cell.error).toBeNull();
    expect(Number(cell.text)).not.toBeNaN();
    await screenshot(preview.page, "edit-cell");
    // A cell without a PCD formula shows no form.
    await preview.page.evaluate(() => window.__pcdPreview.select("C5"));
    await form.waitFor({ state: "detached" });
  });

  test("several checked series insert one formula per row", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane);
    await searchAndWait(preview, "gas germany");
    const rows = options(preview);
    const codes: string[] = [];
    for (const index of [0, 1, 2]) {
      await rows.nth(index).getByTestId("row-check").click();
      expect(await rows.nth(index).getAttribute("aria-selected")).toBe("true");
      codes.push((await rows.nth(index).getAttribute("data-code"))!);
    }
    await preview.pane.getByRole("radio", { name: "Info" }).check();
    await preview.pane.locator("select[name=field]").selectOption("coverage");
    await preview.page.evaluate(() => window.__pcdPreview.select("D5:F9"));
    await preview.pane.getByRole("button", { name: "Insert 3 formulas" }).click();
    await preview.pane.getByText("Inserted 3 formulas into Sheet1!D5:D7.").waitFor();
    expect(await writes(preview.page)).toEqual([
      { address: "Sheet1!D5:D7", formulas: codes.map((code) => [`=PCD.INFO("${code}","coverage")`]) },
    ]);
    for (const address of ["D5", "D6", "D7"])
      expect((await settledCell(preview.page, address)).text).toBe("Germany");
    await screenshot(preview.page, "multi-insert");
  });

  test("a hostile catalog is shown as text: nothing injected, nothing run", async () => {
    const preview = await open();
    const hostile = {
      assessment: `<img src=x onerror="window.__pwned='img'">Hostile <b>bold</b> gas`,
      commodity: `<script>window.__pwned='script'</script>`,
      specification: `"><svg onload="window.__pwned='svg'">`,
    };
    await preview.page.route(
      (url) => url.pathname.endsWith("/energy_price/v1/export/series"),
      async (route: Route) => {
        const response = await route.fetch();
        const body = JSON.parse(await response.text()) as unknown;
        let changed = 0;
        const visit = (node: unknown): void => {
          if (Array.isArray(node)) node.forEach(visit);
          else if (node && typeof node === "object") {
            const record = node as Record<string, unknown>;
            if (typeof record.assessment === "string" && changed < 3) {
              Object.assign(record, hostile);
              changed += 1;
            } else Object.values(record).forEach(visit);
          }
        };
        visit(body);
        await route.fulfill({ response, json: body });
      },
    );
    await signIn(fixture, preview.pane);
    await searchAndWait(preview, "hostile bold");
    const first = options(preview).first();
    expect(await first.textContent()).toContain(hostile.assessment);
    await first.click();
    const details = preview.pane.getByTestId("series-details");
    expect(await details.locator('[data-field="commodity"]').textContent()).toBe(hostile.commodity);
    expect(await details.locator('[data-field="specification"]').textContent()).toBe(hostile.specification);
    // INFO writes the text into the grid, where it stays text too.
    await preview.pane.getByRole("radio", { name: "Info" }).check();
    await preview.pane.locator("select[name=field]").selectOption("assessment");
    await preview.page.evaluate(() => window.__pcdPreview.select("A1"));
    await preview.pane.getByRole("button", { name: "Insert into selected cell" }).click();
    expect((await settledCell(preview.page, "A1")).text).toBe(hostile.assessment);
    expect(await preview.page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await preview.page.locator("img[src=x], svg[onload], b, script:not([src])").count()).toBe(0);
    await screenshot(preview.page, "hostile-catalog");
  });
});

describe("usage and refresh", () => {
  test("usage bars fall after data calls", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane);
    await searchAndWait(preview, "gas germany");
    const code = await options(preview).nth(3).getAttribute("data-code");
    await preview.pane.getByRole("tab", { name: "Usage" }).click();
    const germany = preview.pane.locator('[data-dataset="Germany"]').first();
    await germany.waitFor();
    const before = Number(await germany.getAttribute("data-remaining"));
    // Typed into the grid like a formula in Excel.
    await preview.page.locator('#sheet td[data-address="B2"]').click();
    await preview.page.keyboard.type(`=PCD.VALUE("${code}")`);
    await preview.page.keyboard.press("Enter");
    expect((await settledCell(preview.page, "B2")).error).toBeNull();
    await preview.page.waitForFunction(
      (expected) =>
        document.querySelector('[data-dataset="Germany"]')?.getAttribute("data-remaining") === expected,
      String(before - 1),
    );
    await screenshot(preview.page, "usage");
  });

  test("open PCD with this workbook: off by default, the switch sets Office's startup behaviour", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane);
    await preview.pane.getByRole("tab", { name: "Usage" }).click();
    const setting = preview.pane.getByRole("switch", { name: "Open PCD with this workbook" });
    await preview.pane.getByText(/colleagues you share it with who do not have PCD/).waitFor();
    expect(await setting.isChecked()).toBe(false);
    expect(await preview.page.evaluate(() => window.__pcdPreview.startupBehavior())).toBe("None");
    await setting.click();
    await preview.page.waitForFunction(() => window.__pcdPreview.startupBehavior() === "Load");
    expect(await setting.isChecked()).toBe(true);
    await setting.click();
    await preview.page.waitForFunction(() => window.__pcdPreview.startupBehavior() === "None");
    expect(await setting.isChecked()).toBe(false);
  });

  test("refresh all from the ribbon after a release: progress, then the summary, and the cell updates", async () => {
    const preview = await open();
    await signIn(fixture, preview.pane);
    await searchAndWait(preview, "gas germany");
    const code = await options(preview).nth(4).getAttribute("data-code");
    await preview.page.evaluate(
      (formula) => window.__pcdPreview.enter("A1", formula),
      `=PCD.VALUES("${code}",,,,,0,0,1)`,
    );
    const before = await settledCell(preview.page, "A1");
    expect(before.error).toBeNull();
    await preview.pane.getByRole("tab", { name: "Usage" }).click();
    await preview.pane.getByTestId("refresh-cost").waitFor();

    await fixture.admin("/__admin/release", {});
    // Slow answers keep the progress on screen long enough to see it.
    await fixture.admin("/__admin/faults", { operation: "*", mode: "latency", latencyMs: 700, count: 4 });
    try {
      await preview.page.getByTestId("ribbon-refresh").click();
      await preview.pane.getByTestId("refresh-progress").waitFor();
      const summary = preview.pane.getByTestId("refresh-summary");
      await summary.waitFor({ timeout: 30_000 });
      const count = async (name: string) =>
        Number(await summary.locator(`[data-count="${name}"] dd`).textContent());
      expect(await count("updated")).toBeGreaterThanOrEqual(1);
      expect(await count("failed")).toBe(0);
      expect(await count("requests-used")).toBeGreaterThanOrEqual(1);
      expect(await preview.page.evaluate(() => window.__pcdPreview.taskpaneShown())).toBe(1);
      // Started from the ribbon: shown in the banner, not under the Usage tab's button.
      const usageRefresh = preview.pane.getByRole("region", { name: "Refresh this workbook" });
      expect(await usageRefresh.getByTestId("refresh-summary").count()).toBe(0);
    } finally {
      await fixture.admin("/__admin/faults", undefined, "DELETE");
    }
    // Newest month first: the release added a month at the top, without recalculating.
    await preview.page.waitForFunction(
      (previous) => window.__pcdPreview.cell("A1").text !== previous,
      before.text,
    );
    expect((await preview.page.evaluate(() => window.__pcdPreview.cell("A1"))).text > before.text).toBe(true);
    expect(await preview.page.evaluate(() => window.__pcdPreview.calculations())).toBe(0);
    await screenshot(preview.page, "refresh-summary");
  });
});

test("after a monthly release the reopened workbook offers a refresh, which fetches the new month", async () => {
  // An emulator of its own: this test moves its clock a month on.
  const emulator = await startEmulator({ port: 0, quiet: true, now: QUIET_DAY });
  try {
    const own = { emulator };
    const preview = await open();
    await signIn(own, preview.pane);
    await searchAndWait(preview, "gas germany");
    const code = await options(preview).nth(5).getAttribute("data-code");
    await preview.page.evaluate(
      (formula) => window.__pcdPreview.enter("A1", formula),
      `=PCD.VALUES("${code}",,,,,0,0,1)`,
    );
    const before = await settledCell(preview.page, "A1");
    await preview.pane.getByRole("tab", { name: "Usage" }).click();
    await preview.pane.getByRole("button", { name: "Refresh all" }).click();
    await preview.pane.getByTestId("refresh-summary").waitFor();
    expect(await preview.pane.getByTestId("refresh-offer").count()).toBe(0);

    // A month later, after the December release: the workbook is opened again.
    const afterRelease = "2026-12-04T15:00:00Z";
    await fetch(`${emulator.url}/__admin/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ now: afterRelease }),
    });
    await preview.page.clock.setSystemTime(new Date(afterRelease));
    await preview.page.reload();
    await preview.page.waitForFunction(() => window.__pcdPreview?.functions().length === 10);
    await preview.page.evaluate(
      (formula) => window.__pcdPreview.enter("A1", formula),
      `=PCD.VALUES("${code}",,,,,0,0,1)`,
    );
    await signIn(own, preview.pane);
    const offer = preview.pane.getByTestId("refresh-offer");
    await offer.waitFor();
    await screenshot(preview.page, "refresh-offer-after-release");
    await offer.getByRole("button", { name: "Refresh now" }).click();
    const summary = preview.pane.getByTestId("refresh-summary");
    await summary.waitFor({ timeout: 30_000 });
    expect(Number(await summary.locator('[data-count="updated"] dd').textContent())).toBeGreaterThanOrEqual(
      1,
    );
    await preview.page.waitForFunction((previous) => {
      const shown = window.__pcdPreview.cell("A1");
      return !shown.busy && shown.text !== "" && shown.text > previous;
    }, before.text);
  } finally {
    await emulator.close();
  }
});

describe("service state", () => {
  test("maintenance: the pane says until when, and sign-in explains it", async () => {
    await fixture.admin("/__admin/clock", { now: MAINTENANCE_DAY });
    try {
      const preview = await open({ now: MAINTENANCE_DAY });
      const notice = preview.pane.getByTestId("service-notice");
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/in maintenance until/);
      await fillSignIn(fixture, preview.pane);
      const alert = preview.pane.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/maintenance/i);
      await screenshot(preview.page, "maintenance");
    } finally {
      await fixture.admin("/__admin/clock", { now: QUIET_DAY });
    }
  });
});

describe("accessibility and layout", () => {
  test("keyboard only: sign in, find series, check two and insert them", async () => {
    const preview = await open();
    const { page } = preview;
    await page.locator("#root").getByRole("tab", { name: "Sign in" }).focus();
    await tabUntil(page, { selector: 'input[name="username"]' });
    await page.keyboard.type(fixture.emulator.username);
    await tabUntil(page, { selector: 'input[name="password"]' });
    await page.keyboard.type(fixture.emulator.password);
    await tabUntil(page, { text: "Advanced" });
    await page.keyboard.press("Enter");
    await tabUntil(page, { selector: 'input[name="baseUrl"]' });
    await typeInto(page, fixture.emulator.url);
    await tabUntil(page, { selector: 'input[name="authUrl"]' });
    await typeInto(page, fixture.emulator.url);
    await tabUntil(page, { text: "Sign in", selector: "button[type=submit]" });
    await page.keyboard.press("Enter");
    await signedIn(preview.pane);

    await tabUntil(page, { selector: 'input[type="search"]' });
    await page.keyboard.type("gas germany");
    await preview.pane.getByTestId("series-count").filter({ hasText: 'for "gas germany"' }).waitFor();
    await tabUntil(page, { selector: '[role="listbox"]' });
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Space");
    await page.keyboard.press("Enter");
    await preview.pane.getByTestId("series-details").waitFor();
    // Single values (two whole tables would not fit the preview's 300-row sheet): the radio
    // group is one tab stop, and an arrow key moves the choice from Table to Value.
    await tabUntil(page, { selector: 'input[type="radio"][value="values"]' });
    await page.keyboard.press("ArrowDown");
    await tabUntil(page, { text: "Insert 2 formulas" });
    await page.keyboard.press("Enter");
    await preview.pane.getByText("Inserted 2 formulas into Sheet1!A1:A2.").waitFor();
    const [write] = await writes(page);
    expect(write?.formulas.map(([formula]) => formula)).toEqual([
      expect.stringMatching(/^=PCD\.VALUE\(/),
      expect.stringMatching(/^=PCD\.VALUE\(/),
    ]);
    await screenshot(page, "keyboard");
  });

  test.each([
    ["Sign in", null],
    ["Series", "gas germany"],
    ["Usage", null],
    ["Status", null],
  ])("at 320 px the %s tab needs no horizontal scrolling", async (tab, search) => {
    const preview = await open({ width: 320, height: 900 });
    if (tab !== "Sign in") await signIn(fixture, preview.pane);
    await preview.pane.getByRole("tab", { name: tab === "Sign in" ? /Sign in|Account/ : tab }).click();
    if (search) {
      await searchAndWait(preview, search);
      await options(preview).first().click();
      await preview.pane.getByTestId("series-details").waitFor();
    }
    // The service line grows once a call has answered; a message bar that does not wrap
    // would then overflow without changing size (the ESLint rule pcd/message-bar-multiline).
    if (tab === "Status") {
      await preview.pane.getByTestId("service-state").filter({ hasText: "last answered" }).waitFor();
    }
    // Two animation frames: what the clicks and answers rendered has been laid out.
    await preview.page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    const overflow = await preview.page.evaluate(() => {
      const pane = document.querySelector(".pane")!;
      return {
        scroll: pane.scrollWidth,
        client: pane.clientWidth,
        page: document.documentElement.scrollWidth,
      };
    });
    expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
    expect(overflow.page).toBeLessThanOrEqual(320);
    await screenshot(preview.page, `narrow-${tab.toLowerCase().replace(" ", "-")}`);
  });
});

async function expectText(locator: import("playwright-core").Locator, text: string): Promise<void> {
  await locator.waitFor();
  expect((await locator.textContent())?.trim()).toBe(text);
}
