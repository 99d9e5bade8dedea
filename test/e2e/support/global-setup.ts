// The browser lane's global setup: checks that a browser is there (before minutes of
// building), then builds the add-in and the component harness once for every test file of
// the run (test/support/shared-builds.ts); global-teardown.ts removes them.
import { existsSync } from "node:fs";
import { findChromium } from "../../../scripts/chromium-path";
import { buildShared, SHARED_BUILD_VARIABLES, type SharedBuildName } from "../../support/shared-builds";

export default async function buildForBrowserTests(): Promise<void> {
  const browser = findChromium({ platform: process.platform, env: process.env, exists: existsSync });
  if (!browser.found) throw new Error(browser.message);
  // Both at once: while one build reads or writes its cache (in Node's thread pool) the other
  // compiles, about 1 s less before the first test than one after the other.
  const names = Object.keys(SHARED_BUILD_VARIABLES) as SharedBuildName[];
  const builds = await Promise.allSettled(names.map((name) => buildShared(name)));
  // Named even when the other build failed, so that global-teardown.ts removes it.
  builds.forEach((build, index) => {
    const name = names[index];
    if (build.status === "fulfilled" && name) process.env[SHARED_BUILD_VARIABLES[name]] = build.value;
  });
  const failed = builds.find((build) => build.status === "rejected");
  if (failed) throw failed.reason;
}
