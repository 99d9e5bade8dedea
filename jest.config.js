/** Jest runs the tests (test/**) transpiled by swc without type checking (type checking is
 * `npm run typecheck`'s job) in three lanes, one Jest project each. Where a new test file goes:
 *
 * - browser: it launches Chromium. It lives in test/e2e/ (npm run test:browser).
 * - integration: it spawns a process (node, tsx, npm, git), runs webpack, or plays a
 *   scenario of many seconds (a month, the fault matrix, a golden corpus, the benchmark's
 *   smoke run, the emulator's conformance suites). Name it `*.integration.test.ts`
 *   (npm run test:integration); the folders and files listed below are integration tests
 *   under other names.
 * - unit: everything else: in-process, no server that takes seconds to start, each test far
 *   below the lane's 10 s timeout (npm run test:unit).
 *
 * test/build/test-lanes.test.ts holds every file to this rule as far as its imports show.
 */
const os = require("node:os");
const { swcTypescriptCommonJs } = require("./swc.typescript");
const { emulatorCatalogFolder } = require("./test/support/emulator-catalog-folder");

// The emulator's catalog is generated once for every test file and process the run starts, then
// read back (about 0.01 CPU-seconds instead of 0.15 to 1 each): src/emulator/kept-catalogs.ts.
process.env.PCD_EMULATOR_CATALOG_CACHE ??= emulatorCatalogFolder();

const TEST_FILES = "**/*.test.{ts,tsx}";

const BROWSER = ["<rootDir>/test/e2e/**/*.test.{ts,tsx}"];

const INTEGRATION = [
  "<rootDir>/test/**/*.integration.test.{ts,tsx}",
  "<rootDir>/test/**/*.golden.test.{ts,tsx}",
  "<rootDir>/test/resilience/**/*.test.{ts,tsx}",
  "<rootDir>/test/month/**/*.test.{ts,tsx}",
  "<rootDir>/test/emulator/conformance/**/*.test.{ts,tsx}",
  "<rootDir>/test/bench/smoke.test.ts",
  "<rootDir>/test/build/webpack-build.test.ts",
  "<rootDir>/test/docs/readme-runner-example.test.ts",
  "<rootDir>/test/docs/references.test.ts",
  "<rootDir>/test/emulator/cli.test.ts",
  "<rootDir>/test/functions/excel-dates.test.ts",
  "<rootDir>/test/headless/cli.test.ts",
  "<rootDir>/test/headless/emulator-runner.test.ts",
  "<rootDir>/test/scripts/production-install.test.ts",
  "<rootDir>/test/scripts/run-built.test.ts",
  "<rootDir>/test/scripts/serve.test.ts",
];

// Jest puts the root folder in front of <rootDir> only when a glob starts with it, not after "!".
const not = (globs) => globs.map((glob) => `!${glob.replace("<rootDir>", __dirname)}`);

// Dependencies published as ES modules only: swc turns them into CommonJS like the tests.
const ESM_ONLY_PACKAGES = ["p-limit", "p-throttle", "yocto-queue"];

// The tests run the same swc settings as the bundles (swc.typescript.js), as CommonJS for Jest.
const SWC = swcTypescriptCommonJs();

const shared = {
  // Node's, disabling at each file's end what the file enabled (test/support/lane-environment.js).
  testEnvironment: "<rootDir>/test/support/lane-environment.js",
  roots: ["<rootDir>/test"],
  transform: {
    "^.+\\.tsx?$": ["@swc/jest", SWC],
    [`node_modules/(${ESM_ONLY_PACKAGES.join("|")})/.+\\.js$`]: ["@swc/jest", SWC],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_PACKAGES.join("|")})/)`],
  moduleNameMapper: {
    "^office-addin-manifest$": "<rootDir>/node_modules/office-addin-manifest/lib/officeApp.js",
    // Jest loads a test file's modules afresh for each file, and Fluent's CommonJS indexes
    // load every component package and 19 MB of icons: these give the same exports, each
    // loaded when first read (test/build/fluent-on-demand.test.ts holds them to the real ones).
    "^@fluentui/react-components$": "<rootDir>/test/support/fluent-components-on-demand.js",
    "^@fluentui/react-icons$": "<rootDir>/test/support/fluent-icons-on-demand.js",
  },
};

const lane = (name, testMatch, extra = {}) => ({ ...shared, displayName: name, testMatch, ...extra });

module.exports = {
  // Jest's default is one worker fewer than the cores: one on a 2-core machine. A worker is
  // one thread that leaves its core idle while its test waits (for Chromium, a spawned
  // process, a server's answer), so one worker more than the cores keeps them busy: on two
  // cores `npm test` measured 400 s with three workers (11 idle CPU-seconds), 456 s with two
  // (74 idle).
  maxWorkers: os.availableParallelism() + 1,
  // Integration and browser tests: 30 s a test unless a file says otherwise. Jest reads
  // testTimeout here only (not per project): the unit lane's setup file lowers it to 10 s.
  testTimeout: 30_000,
  projects: [
    lane("unit", [`<rootDir>/test/${TEST_FILES}`, ...not(BROWSER), ...not(INTEGRATION)], {
      setupFilesAfterEnv: ["<rootDir>/test/support/unit-lane-timeout.ts"],
    }),
    // The PGlite database the gateway tests copy, kept from one run to the next.
    lane("integration", INTEGRATION, {
      globalSetup: "<rootDir>/test/support/integration-global-setup.ts",
    }),
    // One build of the add-in and of the component harness for every browser test file.
    lane("browser", BROWSER, {
      testEnvironment: "<rootDir>/test/e2e/support/browser-environment.js",
      globalSetup: "<rootDir>/test/e2e/support/global-setup.ts",
      globalTeardown: "<rootDir>/test/e2e/support/global-teardown.ts",
    }),
  ],
};
