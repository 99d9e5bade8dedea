// The deployment story in Chromium (docs/deploy.md): the add-in served by npm run serve's
// server signs in and gets data through its /service/ relay from an emulator that sends
// no CORS headers; the same emulator called directly is blocked by the browser, and the
// pane says CORS and points to the relay; a build without a service address asks for one.
import type { Browser, Locator, Page } from "playwright-core";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { startServer, type RunningServer } from "../../src/server/app";
import { parseServeArgs } from "../../src/server/serve-args";
import { serveFolder, type StaticServer } from "../../scripts/static-server";
import { launchChromium, newTestContext } from "./support/browser";
import { KeptPages } from "./support/kept-pages";
import {
  openPreview,
  QUIET_DAY,
  screenshot,
  signedIn,
  type PreviewFixture,
  type PreviewPage,
} from "./support/preview-fixture";
import type { HarnessSetup } from "./harness/component-harness";
import { testBuild, type TestBuild } from "../support/shared-builds";

// Generous: a loaded 2-core machine runs a browser, the emulator and other suites at once.
jest.setTimeout(120_000);

let addin: TestBuild | undefined;
let harness: TestBuild | undefined;
let emulator: RunningEmulator | undefined;
let server: RunningServer | undefined;
let harnessSite: StaticServer | undefined;
let browser: Browser | undefined;
let fixture: PreviewFixture;
const opened: Array<PreviewPage | { close(): Promise<void>; errors: string[] }> = [];

beforeAll(async () => {
  addin = await testBuild("addin");
  harness = await testBuild("harness");
  emulator = await startEmulator({ port: 0, quiet: true, now: QUIET_DAY, cors: false });
  server = await startServer(
    parseServeArgs(["--port", "0", "--dist", addin.folder, "--proxy-to", emulator.url]),
  );
  harnessSite = await serveFolder(harness.folder);
  browser = await launchChromium();
  const site = server;
  const running = emulator;
  fixture = {
    site: { url: site.url, close: () => site.close() },
    emulator: running,
    browser,
    pages: new KeptPages(browser, new URL(site.url).origin),
    admin: async () => {
      throw new Error("not used here");
    },
    close: async () => undefined,
  };
}, 240_000);

afterAll(async () => {
  await fixture?.pages.close();
  await browser?.close();
  await harnessSite?.close();
  await server?.close();
  await emulator?.close();
  addin?.release();
  harness?.release();
});

afterEach(async () => {
  for (const page of opened.splice(0)) {
    expect(page.errors).toEqual([]);
    await page.close();
  }
});

async function openServedPreview(): Promise<PreviewPage> {
  const preview = await openPreview(fixture);
  opened.push(preview);
  return preview;
}

async function fillSignIn(pane: Locator, serviceAddress: string): Promise<void> {
  if (!emulator) throw new Error("no emulator");
  await pane.getByRole("tab", { name: "Sign in" }).click();
  await pane.getByLabel("Username").fill(emulator.username);
  await pane.getByLabel("Password").fill(emulator.password);
  await pane.getByRole("button", { name: "Advanced" }).click();
  await pane.getByLabel("Service address").fill(serviceAddress);
  await pane.getByLabel("Token address").fill(serviceAddress);
  await pane.getByRole("button", { name: "Sign in" }).click();
}

async function settledCell(page: Page, address: string) {
  await page.waitForFunction((cell) => {
    const shown = window.__pcdPreview.cell(cell);
    return shown.text !== "" && !shown.busy;
  }, address);
  return page.evaluate((cell) => window.__pcdPreview.cell(cell), address);
}

test("served by npm run serve, the pane signs in and gets data through /service/ (the emulator allows no origin)", async () => {
  const preview = await openServedPreview();
  await fillSignIn(preview.pane, `${fixture.site.url}/service`);
  await signedIn(preview.pane);

  await preview.pane.getByRole("searchbox", { name: "Search series" }).fill("gas germany");
  await preview.pane.locator("[role=option]").first().click();
  await preview.pane.getByRole("radio", { name: "Value" }).check();
  await preview.page.evaluate(() => window.__pcdPreview.select("A1"));
  await preview.pane.getByRole("button", { name: "Insert into selected cell" }).click();
  const cell = await settledCell(preview.page, "A1");
  expect(cell.error).toBeNull();
  expect(Number.isFinite(Number(cell.text))).toBe(true);
  await screenshot(preview.page, "deploy-signed-in-through-proxy");
});

test("the same emulator called directly: the browser blocks it, and the pane names CORS and the relay", async () => {
  if (!emulator) throw new Error("no emulator");
  const preview = await openServedPreview();
  await fillSignIn(preview.pane, emulator.url);
  const alert = preview.pane.getByRole("alert");
  await alert.waitFor();
  const text = (await alert.textContent()) ?? "";
  expect(text).toContain(emulator.url);
  expect(text).toMatch(/CORS/);
  expect(text).toMatch(/npm run serve -- --proxy-to/);
  expect(text).toMatch(/docs\/deploy\.md/);
  expect(await preview.pane.getByTestId("header-user").count()).toBe(0);
  await screenshot(preview.page, "deploy-cors-blocked");
});

test("a build without a service address: sign-in shows the address field and asks for it", async () => {
  if (!browser || !harnessSite) throw new Error("not started");
  const context = await newTestContext(browser, { viewport: { width: 360, height: 900 } });
  const errors: string[] = [];
  opened.push({ close: () => context.close(), errors });
  const page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  const setup: HarnessSetup = { signedIn: false, addresses: { baseUrl: "", authUrl: "" } };
  await page.goto(`${harnessSite.url}/index.html?setup=${encodeURIComponent(JSON.stringify(setup))}`);
  const pane = page.locator("#root");
  await pane.getByRole("tab", { name: "Sign in" }).click();
  await pane.getByLabel("Username").fill("analyst@pcd.example");
  await pane.getByLabel("Password").fill("secret");
  // Advanced is open already: the address is the one thing this build does not know.
  const address = pane.getByLabel("Service address");
  await address.waitFor();
  expect(await address.inputValue()).toBe("");
  await pane.getByRole("button", { name: "Sign in" }).click();
  // Said twice: at the field, and in the form's message bar.
  await pane.getByRole("alert").filter({ hasText: "Enter the service address." }).waitFor();
  const message = pane.getByRole("alert").filter({ hasText: "PCD has no service address yet" });
  expect(await message.textContent()).toMatch(/enter it under Advanced .*docs\/deploy\.md/);
  await screenshot(page, "deploy-asks-for-address");

  await address.fill("https://gateway.pcd-vendor.example/pcd");
  await pane.getByRole("button", { name: "Sign in" }).click();
  await page.waitForFunction(
    () =>
      (window as unknown as { __harness: { engine: { settings: { baseUrl: string } } } }).__harness.engine
        .settings.baseUrl !== "",
  );
  const settings = await page.evaluate(
    () =>
      (window as unknown as { __harness: { engine: { settings: { baseUrl: string; authUrl: string } } } })
        .__harness.engine.settings,
  );
  // The token address, left empty, follows the service address.
  expect(settings).toMatchObject({
    baseUrl: "https://gateway.pcd-vendor.example/pcd",
    authUrl: "https://gateway.pcd-vendor.example/pcd",
  });
});
