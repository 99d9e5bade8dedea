// Sign in with your organisation, end to end through the Office dialog path: a build with the
// organisation sign-in settings, served by a team gateway (same origin as the data) that accepts
// a local OpenID Connect provider's tokens; the preview's mock Office opens the dialog page in a
// popup, which runs the authorization code flow with PKCE against the provider and sends the
// token back; the pane signs in as the provider's user and a cell fills through the gateway.
import type { Browser, Page } from "playwright-core";
import { buildAddin } from "../../scripts/build-addin";
import type { RunningGateway } from "../../src/gateway/gateway-app";
import { memoryStore, type MemoryStore } from "../gateway/support/memory-store";
import { startService, startTeamGateway, type ServiceUnderTest } from "../gateway/support/team";
import { launchChromium, newTestContext } from "./support/browser";
import { startTestProvider, type TestProvider } from "./support/oidc-provider";
import { QUIET_DAY, screenshot } from "./support/preview-fixture";
import { developmentAddinWith } from "../support/shared-builds";
import { rmSync } from "node:fs";

const CLIENT_ID = "pcd-addin-client";
const AUDIENCE = "pcd-gateway-client";
const TENANT = "11111111-2222-3333-4444-555555555555";
const USER = "Ana.Lopez@Example.com";

// A build of its own (the provider's address is a build setting: the development build with
// the organisation sign-in settings) and a gateway.
jest.setTimeout(300_000);

let service: ServiceUnderTest;
let provider: TestProvider;
let store: MemoryStore;
let build: string;
let gateway: RunningGateway;
let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  service = await startService(QUIET_DAY);
  provider = await startTestProvider({
    clientId: CLIENT_ID,
    audience: AUDIENCE,
    tenant: TENANT,
    user: USER,
    now: service.now,
  });
  build = await buildAddin(
    developmentAddinWith({
      PCD_OIDC_AUTHORITY: provider.url,
      PCD_OIDC_CLIENT_ID: CLIENT_ID,
      PCD_OIDC_SCOPE: `api://${AUDIENCE}/access_as_user`,
    }),
  );
  store = memoryStore();
  gateway = await startTeamGateway(service, store, {
    dist: build,
    domain: "example.com",
    oidc: { issuer: provider.url, audience: AUDIENCE, tenants: [TENANT] },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await provider?.close();
  await service?.close();
  if (build) rmSync(build, { recursive: true, force: true });
});

function watchErrors(page: Page): void {
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
}

test("the pane signs in through the dialog against the organisation's provider and fills a cell through the gateway", async () => {
  const context = await newTestContext(browser, { viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  watchErrors(page);
  context.on("page", watchErrors);
  await page.clock.install({ time: new Date(QUIET_DAY) });
  await page.clock.resume();
  await page.goto(`${gateway.url}/preview.html`);
  await page.waitForFunction(() => window.__pcdPreview?.functions().length === 10);
  const pane = page.locator("#root");

  await pane.getByRole("tab", { name: "Sign in" }).click();
  const button = pane.getByRole("button", { name: "Sign in with your organisation" });
  // Offered first, above the username and password form that stays for other gateways.
  expect(
    await button.evaluate((element, username) => {
      const field = document.querySelector(username);
      return (
        field !== null && (element.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0
      );
    }, "input[name=username]"),
  ).toBe(true);
  await pane.getByRole("button", { name: "Advanced" }).click();
  await pane.getByLabel("Service address").fill(`${gateway.url}/api`);
  await pane.getByLabel("Token address").fill(`${gateway.url}/auth`);

  const popup = context.waitForEvent("page");
  await button.click();
  const dialog = await popup;
  // The dialog closes itself once the pane has the token.
  await dialog.waitForEvent("close", { timeout: 30_000 });
  await pane.getByTestId("header-user").filter({ hasText: "ana.lopez@example.com" }).waitFor();
  expect(provider.events).toEqual(["authorize", "token:authorization_code"]);

  await pane.getByRole("tab", { name: "Account" }).click();
  await pane.getByText("through your organisation's account").first().waitFor();

  await page.evaluate(() => window.__pcdPreview.enter("A1", '=PCD.VALUE("68520-8-1",DATE(2024,3,1))'));
  await page.waitForFunction(() => {
    const shown = window.__pcdPreview.cell("A1");
    return shown.text !== "" && !shown.busy;
  });
  const cell = await page.evaluate(() => window.__pcdPreview.cell("A1"));
  expect(cell.error).toBeNull();
  expect(Number.isFinite(Number(cell.text))).toBe(true);
  // The gateway served the organisation's member, added at the first request.
  expect((await store.members.list()).map((member) => member.email)).toContain("ana.lopez@example.com");
  await screenshot(page, "org-sign-in-through-dialog");
  expect(errors).toEqual([]);
  await context.close();
});
