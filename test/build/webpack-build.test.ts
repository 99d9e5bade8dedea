// Builds the add-in the way `npm run build` does (into temporary folders) and checks
// what Excel will load: functions.json, the rewritten manifest, and the page.
import { readFileSync, readdirSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { buildAddin } from "../../scripts/build-addin";

describe("production build", () => {
  let dist: string;
  beforeAll(async () => {
    dist = await buildAddin({ mode: "production", env: { PCD_ADDIN_URL: "https://pcd.example.com/addin" } });
  }, 180_000);
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  test("functions.json declares the five PCD functions with help links on the deployed origin", () => {
    const metadata = JSON.parse(readFileSync(path.join(dist, "functions.json"), "utf8")) as {
      functions: Array<{ id: string; helpUrl?: string }>;
    };
    expect(metadata.functions.map((fn) => fn.id).sort()).toEqual([
      "INFO",
      "LIMITS",
      "SEARCH",
      "VALUE",
      "VALUES",
    ]);
    for (const fn of metadata.functions) expect(fn.helpUrl).toMatch(/^https:\/\/pcd\.example\.com\/addin\//);
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
  test("serves a local copy of Office.js without debug files", async () => {
    const dist = await buildAddin({ mode: "development" });
    try {
      const html = readFileSync(path.join(dist, "taskpane.html"), "utf8");
      expect(html).toContain("https://localhost:3000/office-js/office.js");
      expect(existsSync(path.join(dist, "office-js/office.js"))).toBe(true);
      expect(existsSync(path.join(dist, "office-js/custom-functions-runtime.js"))).toBe(true);
      expect(existsSync(path.join(dist, "office-js/office.debug.js"))).toBe(false);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  }, 180_000);
});
