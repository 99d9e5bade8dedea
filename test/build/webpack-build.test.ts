// Builds the add-in the way `npm run build` does (into temporary folders) and checks
// what Excel will load: functions.json, the rewritten manifest, and the page; and that a
// production build carries the addresses it was given and no loopback address at all.
import { readFileSync, existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { gzipBytes } from "../../bench/bundle-size";
import { FUNCTIONS_BUNDLE_MAX_KIB } from "../../bench/targets";
import { buildAddin } from "../../scripts/build-addin";
import { checkRepositoryManifest } from "../../scripts/check-manifest";
import { buildServer } from "../../src/server/app";
import { parseServeArgs } from "../../src/server/serve-args";
import { testBuild } from "../support/shared-builds";

const root = path.resolve(__dirname, "../..");
const SERVICE_URL = "https://gateway.pcd-vendor.example/pcd";
const AUTH_URL = "https://login.pcd-vendor.example";
/** A loopback address as a URL or an authority: http://localhost:3001, //127.0.0.1, [::1]:80. */
const LOOPBACK_ADDRESS = /(?:[a-z]+:)?\/\/(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(?![\w.-])/i;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("production build", () => {
  let dist: string;
  beforeAll(async () => {
    dist = await buildAddin({
      mode: "production",
      env: {
        PCD_ADDIN_URL: "https://pcd.example.com/addin",
        PCD_SERVICE_URL: SERVICE_URL,
        PCD_AUTH_URL: AUTH_URL,
      },
    });
  }, 180_000);
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  test("functions.json declares the ten PCD functions with help links on the deployed origin", () => {
    const metadata = JSON.parse(readFileSync(path.join(dist, "functions.json"), "utf8")) as {
      functions: Array<{ id: string; helpUrl?: string }>;
    };
    expect(metadata.functions.map((fn) => fn.id).sort()).toEqual([
      "AVERAGE",
      "CHANGE",
      "ESCALATE",
      "INFO",
      "LIMITS",
      "RELOCATE",
      "SEARCH",
      "SERIES",
      "VALUE",
      "VALUES",
    ]);
    for (const fn of metadata.functions) expect(fn.helpUrl).toMatch(/^https:\/\/pcd\.example\.com\/addin\//);
  });

  test("the functions runtime Excel loads at start stays within its budget, gzipped", async () => {
    // The entry's initial chunks: the code that reads answers is a chunk loaded on the first call.
    const atStart = await gzipBytes(dist, ["functions.js", "runtime.js"]);
    expect(atStart / 1024).toBeLessThan(FUNCTIONS_BUNDLE_MAX_KIB);
    expect(readdirSync(dist).filter((file) => /^answer-readers\.[0-9a-f]+\.js$/.test(file))).toHaveLength(1);
  });

  test("the manifest points at the production URL only", () => {
    const manifest = readFileSync(path.join(dist, "manifest.xml"), "utf8");
    expect(manifest).not.toContain("localhost");
    expect(manifest).toContain("https://pcd.example.com/addin/taskpane.html");
  });

  test("the task pane bundles carry no development-only first-run text (emulator account)", () => {
    const scripts = readdirSync(dist).filter((file) => file.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const text = readFileSync(path.join(dist, file), "utf8");
      expect(text).not.toContain("pcd-emulator");
      expect(text).not.toContain("analyst@pcd.example");
    }
    // The first-run panel itself is there.
    expect(
      scripts.some((file) => readFileSync(path.join(dist, file), "utf8").includes("Welcome to PCD")),
    ).toBe(true);
  });

  test("the built manifest passes the offline manifest check on the production origin", async () => {
    const manifest = readFileSync(path.join(dist, "manifest.xml"), "utf8");
    await expect(checkRepositoryManifest(root, manifest)).resolves.toEqual([]);
  });

  test("no file of the build holds a loopback address", () => {
    const files = filesUnder(dist);
    expect(files.map((file) => path.basename(file))).toEqual(
      expect.arrayContaining([
        "functions.js",
        "taskpane.js",
        "taskpane.html",
        "manifest.xml",
        "functions.json",
      ]),
    );
    const hits = files.flatMap((file) => {
      const match = LOOPBACK_ADDRESS.exec(readFileSync(file, "latin1"));
      return match ? [`${path.relative(dist, file)}: ${match[0]}`] : [];
    });
    expect(hits).toEqual([]);
  });

  test("the bundles start with the build's service and token addresses", () => {
    const functions = readFileSync(path.join(dist, "functions.js"), "utf8");
    expect(functions).toContain(JSON.stringify(SERVICE_URL));
    expect(functions).toContain(JSON.stringify(AUTH_URL));
    const html = readFileSync(path.join(dist, "taskpane.html"), "utf8");
    expect(html).toMatch(/connect-src 'self' https:;/);
  });

  test("npm run serve's server sends the built page's policy as a header", async () => {
    const app = await buildServer(parseServeArgs(["--dist", dist]));
    try {
      const response = await app.inject({ method: "GET", url: "/taskpane.html" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-security-policy"]).toMatch(
        /^default-src 'self'; .*connect-src 'self' https:;/,
      );
    } finally {
      await app.close();
    }
  });

  test("the page loads Office.js from the CDN, then runtime, functions, commands and task pane", () => {
    const html = readFileSync(path.join(dist, "taskpane.html"), "utf8");
    const scripts = [...html.matchAll(/<script[^>]*src="?([^\s">]+)/g)].map((match) => match[1]);
    expect(scripts).toEqual([
      "https://appsforoffice.microsoft.com/lib/1/hosted/office.js",
      "runtime.js",
      "functions.js",
      "commands.js",
      "taskpane.js",
    ]);
    expect(html).toMatch(/Content-Security-Policy/);
    expect(html).not.toMatch(/<script(?![^>]*src)[^>]*>/); // no inline script
    expect(existsSync(path.join(dist, "office-js"))).toBe(false);
  });
});

describe("development build", () => {
  // The browser tests' build when the run has one (test/support/shared-builds.ts); that
  // development builds default to the local copy is test/build/webpack-config.test.ts's.
  test("serves a local copy of Office.js without debug files, and presets the local emulator", async () => {
    const build = await testBuild("addin");
    const dist = build.folder;
    try {
      const html = readFileSync(path.join(dist, "taskpane.html"), "utf8");
      expect(html).toContain("https://localhost:3000/office-js/office.js");
      expect(existsSync(path.join(dist, "office-js/office.js"))).toBe(true);
      expect(existsSync(path.join(dist, "office-js/custom-functions-runtime.js"))).toBe(true);
      expect(existsSync(path.join(dist, "office-js/office.debug.js"))).toBe(false);
      // The development build keeps the emulator preset (and the scan above would see it).
      expect(readFileSync(path.join(dist, "functions.js"), "utf8")).toMatch(LOOPBACK_ADDRESS);
      expect(readFileSync(path.join(dist, "functions.js"), "utf8")).toContain('"http://127.0.0.1:3001"');
    } finally {
      build.release();
    }
  }, 180_000);
});
