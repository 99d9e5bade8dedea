// What every browser test needs: the add-in built once per run (test/support/shared-builds.ts),
// served over plain HTTP on 127.0.0.1, the emulator in-process, and Chromium (./browser.ts).
// Each test opens the preview page with no site data (./kept-pages.ts: the browser pages are
// kept between tests, their data deleted), so nothing leaks from one test to the next.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator";
import { launchChromium } from "./browser";
import { KeptPages } from "./kept-pages";
import { serveFolder, type StaticServer } from "../../../scripts/static-server";
import { testBuild } from "../../support/shared-builds";

/** A Tuesday that is neither a maintenance day (15th, 25th) nor the release day (4 Nov 2026). */
export const QUIET_DAY = "2026-11-10T15:00:00Z";
/** 25 Nov 2026, 9 am US Central: inside the maintenance window. */
export const MAINTENANCE_DAY = "2026-11-25T15:00:00Z";

export const ARTIFACTS = path.resolve(__dirname, "../../../test-results/e2e");

export interface PreviewFixture {
  site: StaticServer;
  emulator: RunningEmulator;
  browser: Browser;
  /** The pages openPreview opens, kept from one test to the next. */
  pages: KeptPages;
  /** Calls an emulator test control (POST unless a body is absent and method says otherwise). */
  admin(pathname: string, body?: unknown, method?: "GET" | "POST" | "DELETE"): Promise<unknown>;
  close(): Promise<void>;
}

export async function startPreviewFixture(options: Partial<EmulatorOptions> = {}): Promise<PreviewFixture> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const build = await testBuild("addin");
  const started: Array<() => Promise<void>> = [async () => build.release()];
  const close = async (): Promise<void> => {
    for (const stop of started.reverse()) await stop().catch(() => undefined);
  };
  try {
    const site = await serveFolder(build.folder);
    started.push(() => site.close());
    const emulator = await startEmulator({ port: 0, quiet: true, now: QUIET_DAY, ...options });
    started.push(() => emulator.close());
    const browser = await launchChromium();
    started.push(() => browser.close());
    const pages = new KeptPages(browser, new URL(site.url).origin);
    started.push(() => pages.close());
    const admin = async (pathname: string, body?: unknown, method: "GET" | "POST" | "DELETE" = "POST") => {
      const response = await fetch(`${emulator.url}${pathname}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<unknown>;
    };
    return { site, emulator, browser, pages, admin, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface OpenOptions {
  width?: number;
  height?: number;
  /** The page's clock (the engine's schedule reads it); time flows on from here. */
  now?: string;
}

export interface PreviewPage {
  page: Page;
  /** Uncaught page errors and CSP violations: a test ends by asserting there were none. */
  errors: string[];
  pane: Locator;
  /** Ends the test's use of the page (its site data is deleted; the next test may take it). */
  close(): Promise<void>;
}

/** Opens the preview page of the fixture's site (the add-in's static site, or a gateway serving it). */
export async function openPreview(
  fixture: Pick<PreviewFixture, "site" | "pages">,
  options: OpenOptions = {},
): Promise<PreviewPage> {
  const held = await fixture.pages.take({
    width: options.width ?? 1100,
    height: options.height ?? 900,
    now: new Date(options.now ?? QUIET_DAY),
  });
  const { page, errors } = held;
  try {
    await page.goto(`${fixture.site.url}/preview.html`);
    await page.waitForFunction(() => window.__pcdPreview?.functions().length === 10);
    const pane = page.locator("#root");
    await pane.getByRole("tablist", { name: "PCD areas" }).waitFor();
    return { page, errors, pane, close: held.release };
  } catch (error) {
    await held.release();
    throw error;
  }
}

export interface SignInOptions {
  username?: string;
  password?: string;
  environment?: "Live" | "Sandbox (test data)";
}

/** Fills the sign-in form as a person would, pointing Advanced at the emulator. */
export async function fillSignIn(
  fixture: Pick<PreviewFixture, "emulator">,
  pane: Locator,
  options: SignInOptions = {},
): Promise<void> {
  await pane.getByRole("tab", { name: "Sign in" }).click();
  await pane.getByLabel("Username").fill(options.username ?? fixture.emulator.username);
  await pane.getByLabel("Password").fill(options.password ?? fixture.emulator.password);
  if (options.environment) await pane.getByRole("radio", { name: options.environment }).check();
  await pane.getByRole("button", { name: "Advanced" }).click();
  await pane.getByLabel("Service address").fill(fixture.emulator.url);
  await pane.getByLabel("Token address").fill(fixture.emulator.url);
  await pane.getByRole("button", { name: "Sign in" }).click();
}

export async function signIn(
  fixture: Pick<PreviewFixture, "emulator">,
  pane: Locator,
  options: SignInOptions = {},
): Promise<void> {
  await fillSignIn(fixture, pane, options);
  await signedIn(pane);
}

/**
 * Waits for the header to name the user. A sign-in that does not get there fails with what the
 * pane shows (an error, a spinner, the form), so a failure on a loaded machine can be read.
 */
export async function signedIn(pane: Locator): Promise<void> {
  try {
    await pane.getByTestId("header-user").waitFor();
  } catch (error) {
    const read = { timeout: 2_000 };
    const alerts = await pane
      .getByRole("alert")
      .allInnerTexts()
      .catch(() => []);
    const shown = await pane.innerText(read).catch(() => "(the pane could not be read)");
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The pane did not sign in: ${reason}\nIts alerts: ${JSON.stringify(alerts)}\nThe pane's text ends:\n${shown.slice(-1_500)}`,
    );
  }
}

/** Set to 1, the browser tests keep pictures of the states they reach in test-results/e2e/. */
const SCREENSHOTS_VARIABLE = "PCD_SCREENSHOTS";

/**
 * A picture of the page named after the state it shows, taken only when PCD_SCREENSHOTS=1: no
 * test reads them, and taking them costs the browser lane about 20 CPU-seconds.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env[SCREENSHOTS_VARIABLE] !== "1") return;
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}
