// The add-in builds the tests load, made once per Jest run: the browser lane's global setup
// (test/e2e/support/global-setup.ts) builds them and names their folders in these variables,
// which every test worker inherits. Run without that setup (npm run screenshots, a test file
// of another lane), a caller builds its own copy and removes it when done.
import { existsSync, rmSync } from "node:fs";
import { buildAddin, type BuildOptions } from "../../scripts/build-addin";
import { buildHarness } from "../e2e/support/build-harness";

/**
 * The development build with a local Office.js: what the preview page and the deploy test
 * serve. Its libraries run their production code (with React's development checks a page
 * takes twice as long to open and sign in, and users run the production code).
 */
export const DEVELOPMENT_ADDIN: BuildOptions = {
  mode: "development",
  env: { PCD_OFFICE_JS: "local", PCD_LIBRARY_MODE: "production" },
};

/**
 * The development build with more build settings (a test server's address, which changes
 * every run), kept in the development build's webpack cache: webpack rebuilds only the modules
 * that read a setting whose value differs (a build without a cache, as on a fresh clone, costs
 * about twice the CPU).
 */
export function developmentAddinWith(settings: Record<string, string>): BuildOptions {
  return {
    ...DEVELOPMENT_ADDIN,
    env: { ...DEVELOPMENT_ADDIN.env, ...settings },
    cacheKey: { mode: DEVELOPMENT_ADDIN.mode, env: DEVELOPMENT_ADDIN.env },
  };
}

export const SHARED_BUILD_VARIABLES = {
  addin: "PCD_TEST_ADDIN_BUILD",
  harness: "PCD_TEST_HARNESS_BUILD",
} as const;

export type SharedBuildName = keyof typeof SHARED_BUILD_VARIABLES;

export interface TestBuild {
  folder: string;
  /** Removes the folder when this caller built it; a shared build stays until the run ends. */
  release(): void;
}

const builders: Record<SharedBuildName, () => Promise<string>> = {
  addin: () => buildAddin(DEVELOPMENT_ADDIN),
  harness: () => buildHarness(),
};

export function buildShared(name: SharedBuildName): Promise<string> {
  return builders[name]();
}

/** The run's shared build when there is one, else a build of the caller's own. */
export async function testBuild(name: SharedBuildName): Promise<TestBuild> {
  const variable = SHARED_BUILD_VARIABLES[name];
  const shared = process.env[variable];
  if (shared) {
    if (!existsSync(shared)) throw new Error(`${variable} names ${shared}, which does not exist.`);
    return { folder: shared, release: () => undefined };
  }
  const folder = await buildShared(name);
  return { folder, release: () => rmSync(folder, { recursive: true, force: true }) };
}
