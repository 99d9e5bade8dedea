// Time from page load to the five custom functions registered, in headless Chromium: the
// development build's preview page (a mock Office host that records
// CustomFunctions.associate) is loaded in a fresh browser context several times, and the
// page's own clock (performance.now(), zero at navigation start) is read the moment
// window.__pcdPreview reports all ten functions.
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { findChromium, type ChromiumFound } from "../scripts/chromium-path";
import { serveFolder } from "../scripts/static-server";

function installedChromium(): ChromiumFound {
  return findChromium({ platform: process.platform, env: process.env, exists: existsSync });
}

export const EXPECTED_FUNCTIONS = 10;

export interface StartupMeasurement {
  /** Median over the loads, ms. */
  medianMs: number;
  samplesMs: number[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("No samples to take the median of");
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Why start-up cannot be measured here, or null when it can. */
export async function startupUnavailable(): Promise<string | null> {
  const browser = installedChromium();
  return browser.found ? null : browser.message;
}

export async function measureStartup(buildFolder: string, loads = 5): Promise<StartupMeasurement> {
  const installed = installedChromium();
  if (!installed.found) throw new Error(installed.message);
  const server = await serveFolder(buildFolder);
  const browser = await chromium.launch({
    executablePath: installed.path,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const samplesMs: number[] = [];
    for (let load = 0; load < loads; load += 1) {
      // A new context each time: no HTTP cache, no storage from the previous load.
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/preview.html`, { waitUntil: "commit" });
        const handle = await page.waitForFunction(
          (expected) => {
            const api = (window as unknown as { __pcdPreview?: { functions(): string[] } }).__pcdPreview;
            return api !== undefined && api.functions().length >= expected ? performance.now() : false;
          },
          EXPECTED_FUNCTIONS,
          { polling: 5, timeout: 30_000 },
        );
        samplesMs.push(Number(await handle.jsonValue()));
      } finally {
        await context.close();
      }
    }
    return { medianMs: median(samplesMs), samplesMs };
  } finally {
    await browser.close();
    await server.close();
  }
}
