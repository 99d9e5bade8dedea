// A Chromium-family browser driven by playwright-core (never a downloaded browser), one per
// test file, with a fresh profile per context. Which browser: scripts/chromium-path.ts
// (PCD_CHROMIUM, else the platform's usual install locations).
import { existsSync } from "node:fs";
import type { Browser, BrowserContext, BrowserContextOptions, BrowserType } from "playwright-core";
import { findChromium } from "../../../scripts/chromium-path";

/**
 * Playwright's Chromium as the browser lane's environment loaded it once for the worker
 * (./browser-environment.js), else (a file run under another environment) loaded here.
 */
function playwrightChromium(): BrowserType {
  const shared = (globalThis as { pcdPlaywrightChromium?: BrowserType }).pcdPlaywrightChromium;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return shared ?? (require("playwright-core") as typeof import("playwright-core")).chromium;
}

export function launchChromium(): Promise<Browser> {
  const browser = findChromium({ platform: process.platform, env: process.env, exists: existsSync });
  if (!browser.found) throw new Error(browser.message);
  return playwrightChromium().launch({
    executablePath: browser.path,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // The omnibox's pop-ups are web pages Chromium loads for every window (a new context
      // opens one) though a headless window never shows them: about 1.3 CPU-seconds each.
      "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
    ],
  });
}

// Every animation and transition ends as it starts (Playwright does the same for screenshots).
const NO_MOTION = [
  "(() => { const sheet = new CSSStyleSheet();",
  'sheet.replaceSync("*, *::before, *::after { animation-duration: 0s !important;',
  "animation-delay: 0s !important; animation-iteration-count: 1 !important;",
  'transition-duration: 0s !important; transition-delay: 0s !important; }");',
  "document.adoptedStyleSheets.push(sheet); })();",
].join(" ");

/**
 * A browser context for a test: no motion. A spinner or a sliding panel has Chromium draw a
 * frame every 16 ms while it shows (about a tenth of the browser lane's CPU), and no test looks
 * at motion. Reduced motion is what Fluent's own motion asks the system for.
 */
export async function newTestContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ reducedMotion: "reduce", ...options });
  await context.addInitScript({ content: NO_MOTION });
  return context;
}
