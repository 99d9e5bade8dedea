// Task pane states the emulator cannot produce on demand, in Chromium against the real
// engine with its schedule, refresh and reachability scripted (test/e2e/harness): the refresh offer after a release, the automatic refresh,
// a failed refresh, the refresh cost, release-day downtime, sign-out and clearing the cache.
import type { Browser, Locator, Page } from "playwright-core";
import { launchChromium, newTestContext } from "./support/browser";
import { KeptPages, type HeldPage } from "./support/kept-pages";
import { screenshot } from "./support/preview-fixture";
import { serveFolder, type StaticServer } from "../../scripts/static-server";
import type { HarnessSetup } from "./harness/component-harness";
import { testBuild, type TestBuild } from "../support/shared-builds";

// Generous: a loaded 2-core machine runs a browser, the emulator and other suites at once.
jest.setTimeout(120_000);

let harness: TestBuild | undefined;
let site: StaticServer;
let browser: Browser;
let pages: KeptPages;
let held: HeldPage | undefined;

beforeAll(async () => {
  harness = await testBuild("harness");
  site = await serveFolder(harness.folder);
  browser = await launchChromium();
  pages = new KeptPages(browser, new URL(site.url).origin);
}, 120_000);

afterAll(async () => {
  await pages?.close();
  await browser?.close();
  await site?.close();
  harness?.release();
});

afterEach(async () => {
  const finished = held;
  held = undefined;
  expect(finished?.errors ?? []).toEqual([]);
  await finished?.release();
});

async function mount(setup: HarnessSetup): Promise<{ page: Page; pane: Locator }> {
  held = await pages.take({ width: 360, height: 900 });
  const { page } = held;
  await page.goto(`${site.url}/index.html?setup=${encodeURIComponent(JSON.stringify(setup))}`);
  const pane = page.locator("#root");
  await pane.getByRole("tablist", { name: "PCD areas" }).waitFor();
  return { page, pane };
}

function engineValue<T>(page: Page, read: string): Promise<T> {
  return page.evaluate((path) => {
    const engine = (window as unknown as { __harness: { engine: Record<string, unknown> } }).__harness.engine;
    return engine[path] as T;
  }, read);
}

function finishRefresh(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    (window as unknown as { __harness: { engine: { finish(): boolean } } }).__harness.engine.finish(),
  );
}

describe("refresh after a monthly release", () => {
  test("is offered when the workbook opens, then shows progress and the summary with failures", async () => {
    const { page, pane } = await mount({
      due: true,
      summary: {
        updated: 3,
        revised: 1,
        unchanged: 5,
        failed: 1,
        requestsUsed: 4,
        failures: [{ key: "k", code: "12345-1-1", message: "Allowance of Germany is used up." }],
      },
    });
    const offer = pane.getByTestId("refresh-offer");
    await offer.waitFor();
    expect(await engineValue<number>(page, "refreshCalls")).toBe(0);
    await screenshot(page, "refresh-offer");
    await offer.getByRole("button", { name: "Refresh now" }).click();
    await pane.getByTestId("refresh-progress").filter({ hasText: "Fetching data: 1 of 4" }).waitFor();
    expect(await finishRefresh(page)).toBe(true);
    const summary = pane.getByTestId("refresh-summary");
    await summary.waitFor();
    const counts = await summary
      .locator("[data-count]")
      .evaluateAll((nodes) =>
        nodes.map((node) => [node.getAttribute("data-count"), node.querySelector("dd")?.textContent]),
      );
    expect(counts).toEqual([
      ["updated", "3"],
      ["revised", "1"],
      ["unchanged", "5"],
      ["failed", "1"],
      ["requests-used", "4"],
    ]);
    expect(await summary.getByRole("list", { name: "Failures" }).textContent()).toBe(
      "12345-1-1: Allowance of Germany is used up.",
    );
    expect(await pane.getByTestId("refresh-offer").count()).toBe(0);
    expect(await engineValue<number>(page, "refreshCalls")).toBe(1);
  });

  test("'Later' puts the offer away without refreshing", async () => {
    const { page, pane } = await mount({ due: true });
    await pane.getByTestId("refresh-offer").getByRole("button", { name: "Later" }).click();
    await pane.getByTestId("refresh-offer").waitFor({ state: "detached" });
    expect(await engineValue<number>(page, "refreshCalls")).toBe(0);
  });

  test("runs by itself when the user chose automatic refresh", async () => {
    const { page, pane } = await mount({ due: true, auto: true, summary: { updated: 2, requestsUsed: 2 } });
    await pane.getByTestId("refresh-progress").waitFor();
    expect(await pane.getByTestId("refresh-offer").count()).toBe(0);
    await finishRefresh(page);
    await pane.getByTestId("refresh-summary").waitFor();
    expect(await engineValue<number>(page, "refreshCalls")).toBe(1);
  });

  test("an automatic refresh that fails says why and is not retried in a loop", async () => {
    const { page, pane } = await mount({
      due: true,
      auto: true,
      refreshFails: "The service is down for maintenance.",
    });
    await pane.getByTestId("refresh-progress").waitFor();
    await finishRefresh(page);
    const failed = pane.getByTestId("refresh-failed");
    await failed.waitFor();
    expect(await failed.textContent()).toContain(
      "Refresh failed: The service is down for maintenance. Cached data is unchanged.",
    );
    // Switching tabs re-renders everything; no second automatic run starts.
    await pane.getByRole("tab", { name: "Status" }).click();
    await pane.getByRole("tab", { name: "Series" }).click();
    expect(await engineValue<number>(page, "refreshCalls")).toBe(1);
  });

  test("the automatic choice is a setting the pane changes", async () => {
    const { page, pane } = await mount({});
    await pane.getByRole("tab", { name: "Usage" }).click();
    const toggle = pane.getByRole("switch", { name: "Refresh by itself after a monthly release" });
    await toggle.check();
    await page.waitForFunction(
      () =>
        (window as unknown as { __harness: { engine: { settings: { autoRefreshAfterRelease: boolean } } } })
          .__harness.engine.settings.autoRefreshAfterRelease,
    );
    expect(await toggle.isChecked()).toBe(true);
  });
});

describe("usage", () => {
  test("the cost of a refresh per dataset, with a warning where the allowance is short", async () => {
    const { page, pane } = await mount({
      plan: {
        items: [],
        cost: [
          { product: "energy_price", dataset: "Germany", requests: 12, remaining: 5 },
          { product: "energy_price", dataset: "France", requests: 3, remaining: 400 },
          { product: "energy_price", dataset: "Spain", requests: 0, remaining: 400 },
        ],
        totalRequests: 15,
        overBudget: ["Germany"],
      },
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    const cost = pane.getByTestId("refresh-cost");
    await cost.waitFor();
    expect(await cost.locator("caption").textContent()).toBe(
      "Refreshing this workbook uses 15 data requests:",
    );
    const rows = await cost
      .locator("tbody tr")
      .evaluateAll((nodes) =>
        nodes.map((node) => [...node.querySelectorAll("td")].map((cell) => cell.textContent)),
      );
    expect(rows).toEqual([
      ["Germany", "12", "5"],
      ["France", "3", "400"],
    ]);
    expect(await cost.textContent()).toContain("Not enough allowance left for Germany");
    await screenshot(page, "refresh-cost");
  });

  test("a product whose limits could not be read is named with the cause, beside the others' bars", async () => {
    const down = "The service is down for maintenance until 22:00 US Central Time.";
    const { pane } = await mount({
      limitsRows: [
        { product: "energy_price", dataset: "Germany", remaining: 480, total: 500 },
        { product: "commodity_price", dataset: "Polymers", remaining: 300, total: 300 },
      ],
      limitsDown: { industry_economics: down },
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    const warning = pane.getByTestId("limits-unavailable");
    await warning.waitFor();
    expect(await warning.getAttribute("data-product")).toBe("industry_economics");
    expect(await warning.textContent()).toBe(`Data limits of Industry could not be read: ${down}`);
    // The products that answered keep their bars; the one that did not has none.
    expect(await pane.getByTestId("usage-bars").getByRole("button").allTextContents()).toEqual([
      "Energy (1 dataset, 1 used)",
      "Commodities (1 dataset)",
    ]);
    expect(await pane.getByRole("alert").count()).toBe(0);
  });

  test("Reload reads Data Limits again, however recent the last reading", async () => {
    const { page, pane } = await mount({
      limitsRows: [{ product: "energy_price", dataset: "Germany", remaining: 480, total: 500 }],
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    const germany = pane.locator('[data-dataset="Germany"]');
    await germany.waitFor();
    expect(await germany.getAttribute("data-remaining")).toBe("480");
    // The service counted more meanwhile (another workbook): only a new reading shows it.
    await page.evaluate(() => {
      const { service } = (
        window as unknown as {
          __harness: { engine: { service: { limits: Map<string, Record<string, unknown>> } } };
        }
      ).__harness.engine;
      service.limits.set("energy_price", { Germany: { remaining: 470, total: 500 } });
    });
    await pane.getByRole("button", { name: "Reload" }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-dataset="Germany"]')?.getAttribute("data-remaining") === "470",
    );
  });

  test("a refresh that costs nothing says so", async () => {
    const { pane } = await mount({});
    await pane.getByRole("tab", { name: "Usage" }).click();
    await pane
      .getByText("Refreshing now costs no data requests: the workbook has no PCD data yet.")
      .waitFor();
  });
});

describe("status and account", () => {
  test.each<[string, HarnessSetup["service"], RegExp]>([
    [
      "release-day downtime",
      { available: false, reason: "release", untilInMinutes: 120.5 },
      /^Release day: the service is closed until the new data is published \(by 22:00 US Central Time at the latest: .*, 2 h from now\)/,
    ],
    [
      "maintenance",
      { available: false, reason: "maintenance", untilInMinutes: 60 * 7 + 30.5 },
      /in maintenance until .*\(7 h 30 min from now\)/,
    ],
  ])("%s is shown on every tab with its end", async (_name, service, message) => {
    const { pane } = await mount({ service });
    for (const tab of ["Series", "Usage", "Status"]) {
      await pane.getByRole("tab", { name: tab }).click();
      expect(await pane.getByTestId("service-notice").textContent()).toMatch(message);
    }
    expect(await pane.getByTestId("service-state").textContent()).toMatch(message);
  });

  test("clearing the cache asks first", async () => {
    const { page, pane } = await mount({});
    await pane.getByRole("tab", { name: "Status" }).click();
    await pane.getByRole("button", { name: "Clear cache…" }).click();
    expect(await engineValue<number>(page, "cleared")).toBe(0);
    await pane.getByRole("button", { name: "Yes, clear the cache" }).click();
    await pane.getByText("The cache is cleared").waitFor();
    expect(await engineValue<number>(page, "cleared")).toBe(1);
  });

  test.each([
    ["keeps the cache by default", false, { clearCache: false }],
    ["clears the cache on request", true, { clearCache: true }],
  ])("sign out %s and returns to the sign-in form", async (_name, clear, expected) => {
    const { page, pane } = await mount({ tokenInMinutes: 119, environment: "sandbox" });
    await pane.getByRole("tab", { name: "Account" }).click();
    expect(await pane.getByTestId("token-lifetime").textContent()).toMatch(/Token valid for 1 h 5[89] min/);
    if (clear)
      await pane.getByRole("checkbox", { name: "Also clear the cached data on this computer" }).check();
    await pane.getByRole("button", { name: "Sign out" }).click();
    await pane.getByRole("form", { name: "Sign in to PCD" }).waitFor();
    expect(await engineValue<unknown[]>(page, "signOuts")).toEqual([expected]);
    expect(await pane.getByTestId("sandbox-badge").count()).toBe(0);
  });

  test("signed out, the data tabs ask for a sign-in first", async () => {
    const { pane } = await mount({ signedIn: false });
    for (const tab of ["Series", "Usage"]) {
      await pane.getByRole("tab", { name: tab }).click();
      await pane.getByText("Sign in to PCD first.").waitFor();
    }
    await pane.getByRole("button", { name: "Sign in" }).click();
    await pane.getByRole("form", { name: "Sign in to PCD" }).waitFor();
  });
});

describe("outage, usage and summaries tell what happened", () => {
  // A past day, so the notice always carries the date in front of the time.
  const since = "2025-03-04T14:02:00Z";
  const sinceText =
    "Can't reach the PCD service since 2025-03-04 14:02 UTC; cached values are kept; retrying";

  function answerAgain(page: Page): Promise<void> {
    return page.evaluate(() =>
      (
        window as unknown as { __harness: { engine: { setReachability(value: unknown): void } } }
      ).__harness.engine.setReachability({
        unreachableSince: null,
        reason: null,
        maintenanceUntil: null,
        lastAnswerAt: Date.now() + 1,
      }),
    );
  }

  test("one outage notice on every tab, the Status tab agrees, and both clear with the next answer", async () => {
    const { page, pane } = await mount({ unreachableSince: since });
    for (const tab of ["Series", "Usage", "Status"]) {
      await pane.getByRole("tab", { name: tab }).click();
      expect(await pane.getByTestId("outage-notice").textContent()).toContain(sinceText);
    }
    expect(await pane.getByTestId("service-state").textContent()).toContain(sinceText);
    expect(await pane.getByTestId("service-state").textContent()).toContain(
      "Last error: The service could not be reached (connection refused).",
    );
    await screenshot(page, "outage-status");
    await answerAgain(page);
    await pane.getByTestId("outage-notice").waitFor({ state: "detached" });
    expect(await pane.getByTestId("service-state").textContent()).toMatch(
      /^The PCD service is available\. It last answered at \d\d:\d\d UTC\.$/,
    );
  });

  test("a refresh that failed in the outage is told once, in the outage notice, and clears with the next answer", async () => {
    const { page, pane } = await mount({
      unreachableSince: since,
      refreshFails: "The service could not be reached.",
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    await pane.getByRole("button", { name: "Refresh all" }).click();
    await pane.getByTestId("refresh-progress").waitFor();
    await finishRefresh(page);
    await pane
      .getByTestId("outage-notice")
      .filter({ hasText: "The last refresh could not reach it either" })
      .waitFor();
    expect(await pane.getByTestId("refresh-failed").count()).toBe(0);
    expect(await pane.getByRole("alert").count()).toBe(0);
    await answerAgain(page);
    await pane.getByTestId("outage-notice").waitFor({ state: "detached" });
    expect(await pane.getByTestId("refresh-failed").count()).toBe(0);
  });

  test("a 5xx outage is never shown as available: Status and the notice say the service is failing", async () => {
    const { pane } = await mount({
      unreachableSince: since,
      failingStatus: 503,
      unreachableReason:
        "The service is failing: it answered HTTP 503 (service unavailable) to Series Values.",
    });
    await pane.getByRole("tab", { name: "Status" }).click();
    const status = (await pane.getByTestId("service-state").textContent()) ?? "";
    expect(status).toContain("The PCD service is failing since 2025-03-04 14:02 UTC: it answers HTTP 503");
    expect(status).toContain("Last error: The service is failing: it answered HTTP 503");
    expect(status).not.toMatch(/is available|maintenance|release/);
    expect(await pane.getByTestId("outage-notice").textContent()).toContain(
      "The PCD service is failing since",
    );
    expect(await pane.getByTestId("service-notice").count()).toBe(0);
  });

  test("release day: no cost guessed, and a refresh that failed in the downtime goes when the downtime ends", async () => {
    const { page, pane } = await mount({
      service: { available: false, reason: "release", untilInMinutes: 120.5 },
      plan: {
        items: [
          {
            key: "k",
            code: "68520-8-1",
            product: "energy_price",
            dataset: "Germany",
            action: "none",
            reason: "",
          },
        ],
        cost: [],
        totalRequests: 0,
        overBudget: [],
        // The harness's preview says closed until then, as the engine's does.
        closed: { reason: "release", until: Date.now() + 120.5 * 60_000 },
      },
      refreshFails:
        "The service is down for the monthly data release until 22:00 US Central Time at the latest; no refresh can run until then, and nothing in the workbook was changed.",
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    await pane.getByTestId("refresh-cost-closed").waitFor();
    expect(await pane.getByTestId("refresh-cost-closed").textContent()).toMatch(
      /^No refresh can run before the new data is published \(by 22:00 US Central Time at the latest/,
    );
    expect(await pane.getByText(/everything is up to date/).count()).toBe(0);
    await pane.getByRole("button", { name: "Refresh all" }).click();
    await finishRefresh(page);
    await pane.getByTestId("refresh-failed").waitFor();
    await page.evaluate(() =>
      (
        window as unknown as { __harness: { engine: { setServiceOpen(): void } } }
      ).__harness.engine.setServiceOpen(),
    );
    await pane.getByTestId("refresh-failed").waitFor({ state: "detached" });
  });

  test("a refresh that failed for another cause keeps its message after the service answers", async () => {
    const { page, pane } = await mount({ refreshFails: "Monthly allowance used up for dataset 'Germany'." });
    await pane.getByRole("tab", { name: "Usage" }).click();
    await pane.getByRole("button", { name: "Refresh all" }).click();
    await finishRefresh(page);
    await pane.getByTestId("refresh-failed").waitFor();
    await answerAgain(page);
    expect(await pane.getByTestId("refresh-failed").textContent()).toContain("allowance used up");
  });

  test("usage bars show charged requests, and the unconfirmed apart", async () => {
    const { pane } = await mount({
      limitsRows: [
        { product: "energy_price", dataset: "Germany", remaining: 498, total: 500, unconfirmed: 2 },
        { product: "energy_price", dataset: "France", remaining: 400, total: 400 },
      ],
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    const germany = pane.locator('[data-dataset="Germany"]');
    await germany.waitFor();
    expect(await germany.getAttribute("data-remaining")).toBe("498");
    expect(await germany.getAttribute("data-unconfirmed")).toBe("2");
    expect(await germany.textContent()).toContain("498 of 500 left");
    expect(await germany.getByTestId("unconfirmed").textContent()).toBe(
      "2 more requests sent but not confirmed by the service (checked with the next usage read)",
    );
    expect(await pane.locator('[data-dataset="France"]').getByTestId("unconfirmed").count()).toBe(0);
  });

  test("a summary counts charged requests, tells the unconfirmed apart and gives each cause once", async () => {
    const cause = "Not checked for new data: the service could not be reached.";
    const { page, pane } = await mount({
      summary: {
        failed: 4,
        requestsUsed: 0,
        requestsUnconfirmed: 2,
        failures: [
          { key: "a", code: "1-1-1", message: cause },
          { key: "b", code: "2-2-2", message: cause },
          { key: "c", code: "3-3-3", message: cause },
          { key: "d", code: "4-4-4", message: cause },
        ],
      },
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    await pane.getByRole("button", { name: "Refresh all" }).click();
    await finishRefresh(page);
    const summary = pane.getByTestId("refresh-summary");
    await summary.waitFor();
    expect(await summary.locator('[data-count="requests-used"] dd').textContent()).toBe("0");
    expect(await summary.getByTestId("requests-unconfirmed").textContent()).toMatch(
      /^2 more requests were sent without an answer: the service may or may not have charged them/,
    );
    // Each series named once: a count on the line, every code behind "Show all".
    const failures = await summary.getByRole("list", { name: "Failures" }).locator("li").allTextContents();
    expect(failures).toHaveLength(1);
    expect(failures[0]?.slice(0, `4 series: ${cause}Show all 4`.length)).toBe(`4 series: ${cause}Show all 4`);
    expect(failures[0]).toContain("1-1-1, 2-2-2, 3-3-3");
  });
});

describe("cost preview", () => {
  // Ten o'clock, a maintenance until half past: the hourly re-plan would come at eleven.
  const TEN = Date.parse("2026-11-10T10:00:00Z");
  const MAINTENANCE_END = TEN + 30 * 60_000;

  /**
   * The pane at ten on the Usage tab, the maintenance's sentence up, in a context of its own:
   * its clock is the test's (installed at ten, then flowing), not the real one the kept pages
   * run on. Closes the context after `check`.
   */
  async function duringMaintenance(
    setup: Pick<HarnessSetup, "closedPreviewsAfterEnd">,
    check: (page: Page, pane: Locator) => Promise<void>,
  ): Promise<void> {
    const harnessSetup: HarnessSetup = {
      service: { available: false, reason: "maintenance", untilInMinutes: 30 },
      plan: {
        items: [],
        cost: [],
        totalRequests: 0,
        overBudget: [],
        closed: { reason: "maintenance", until: MAINTENANCE_END },
      },
      ...setup,
    };
    const context = await newTestContext(browser, { viewport: { width: 360, height: 900 } });
    try {
      await context.clock.install({ time: TEN });
      await context.clock.resume();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${site.url}/index.html?setup=${encodeURIComponent(JSON.stringify(harnessSetup))}`);
      const pane = page.locator("#root");
      await pane.getByRole("tab", { name: "Usage" }).click();
      await pane.getByTestId("refresh-cost-closed").waitFor();
      expect(await pane.getByTestId("refresh-cost-closed").textContent()).toMatch(
        /^No refresh can run during the maintenance \(until /,
      );
      await check(page, pane);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }

  const opened = (pane: Locator) =>
    pane.getByText("Refreshing now costs no data requests: the workbook has no PCD data yet.").waitFor();

  test("a maintenance that ends off the hour: its sentence goes at its end, and the cost shows", async () => {
    await duringMaintenance({}, async (page, pane) => {
      await page.clock.fastForward(31 * 60_000);
      await pane.getByTestId("refresh-cost-closed").waitFor({ state: "detached" });
      await opened(pane);
    });
  });

  test("a preview made just after the end that still shows the maintenance is made again seconds later", async () => {
    // As from an engine whose clock is behind the page's: the preview made 1 s after the end
    // still closes the refresh; the next, 2 s later, no longer does.
    await duringMaintenance({ closedPreviewsAfterEnd: 1 }, async (page, pane) => {
      await page.clock.fastForward(31 * 60_000);
      await pane.getByTestId("refresh-cost-closed").waitFor({ state: "detached" });
      await opened(pane);
    });
  });

  test("says as of when, and that a release since may cost more", async () => {
    const { page, pane } = await mount({
      plan: {
        items: [],
        cost: [],
        totalRequests: 0,
        overBudget: [],
        catalogAsOf: Date.parse("2025-03-04T14:02:00Z"),
        releaseSinceCatalog: true,
      },
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    const cost = pane.getByTestId("refresh-cost");
    await cost.waitFor();
    expect(await cost.getByTestId("refresh-cost-as-of").textContent()).toBe(
      "As of 2025-03-04 14:02 UTC (the catalog checked then).",
    );
    // Its own line, not run on after the estimate's sentence ("…up to date.As of …").
    expect(
      await cost.getByTestId("refresh-cost-as-of").evaluate((element) => getComputedStyle(element).display),
    ).toBe("block");
    expect(await cost.getByTestId("refresh-cost-outdated").textContent()).toContain(
      "A monthly release came out since then",
    );
    await screenshot(page, "refresh-cost-as-of");
  });

  test("a dataset name of two products names the product on its rows; opening and Check again read the catalogs", async () => {
    const { page, pane } = await mount({
      plan: {
        items: [],
        cost: [
          { product: "energy_price", dataset: "Germany", requests: 3, remaining: 2 },
          { product: "industry_economics", dataset: "Germany", requests: 2, remaining: 490 },
          { product: "energy_price", dataset: "France", requests: 1, remaining: 400 },
        ],
        totalRequests: 6,
        overBudget: ["Germany"],
        catalogAsOf: Date.parse("2025-03-04T14:02:00Z"),
      },
    });
    await pane.getByRole("tab", { name: "Usage" }).click();
    const cost = pane.getByTestId("refresh-cost");
    await cost.waitFor();
    const rows = await cost
      .locator("tbody tr")
      .evaluateAll((nodes) =>
        nodes.map((node) => [...node.querySelectorAll("td")].map((cell) => cell.textContent)),
      );
    expect(rows).toEqual([
      ["Germany (Energy)", "3", "2"],
      ["Germany (Industry)", "2", "490"],
      ["France", "1", "400"],
    ]);
    expect(await cost.textContent()).toContain(
      "Not enough allowance left for Germany (Energy): 3 needed, 2 left. The refresh spends what is left",
    );
    // Opening the tab was the user asking: the preview read the catalogs then.
    await page.waitForFunction(
      () =>
        (window as unknown as { __harness: { engine: { planRechecks: number } } }).__harness.engine
          .planRechecks === 1,
    );
    await cost.getByTestId("refresh-cost-recheck").click();
    await page.waitForFunction(
      () =>
        (window as unknown as { __harness: { engine: { planRechecks: number } } }).__harness.engine
          .planRechecks === 2,
    );
    await screenshot(page, "refresh-cost-products");
  });
});
