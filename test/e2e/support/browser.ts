// A Chromium-family browser driven by playwright-core (never a downloaded browser), one per
// test file, with a fresh profile per context. Which browser: scripts/chromium-path.ts
// (PCD_CHROMIUM, else the platform's usual install locations).
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { findChromium } from "../../../scripts/chromium-path";

export function launchChromium(): Promise<Browser> {
  const browser = findChromium({ platform: process.platform, env: process.env, exists: existsSync });
  if (!browser.found) throw new Error(browser.message);
  return chromium.launch({
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
    ],
  });
}
