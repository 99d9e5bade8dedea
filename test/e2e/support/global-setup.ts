// The browser lane's global setup: checks that a browser is there (before minutes of
// building), then builds the add-in and the component harness once for every test file of
// the run (test/support/shared-builds.ts); global-teardown.ts removes them.
import { existsSync } from "node:fs";
import { findChromium } from "../../../scripts/chromium-path";
import { buildShared, SHARED_BUILD_VARIABLES, type SharedBuildName } from "../../support/shared-builds";

export default async function buildForBrowserTests(): Promise<void> {
  const browser = findChromium({ platform: process.platform, env: process.env, exists: existsSync });
  if (!browser.found) throw new Error(browser.message);
  for (const name of Object.keys(SHARED_BUILD_VARIABLES) as SharedBuildName[]) {
    process.env[SHARED_BUILD_VARIABLES[name]] = await buildShared(name);
  }
}
