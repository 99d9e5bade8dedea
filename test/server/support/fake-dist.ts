// A small built add-in for the server tests (the build tests use the real one): the page
// with its policy, a hashed chunk, the entry bundle, functions.json and the manifest.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const FAKE_POLICY = "default-src 'self'; connect-src 'self' https:; object-src 'none'";

export function writeFakeDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), "pcd-serve-"));
  const files: Record<string, string> = {
    "taskpane.html": `<!doctype html><html><head>\n<meta\n  http-equiv="Content-Security-Policy"\n  content="${FAKE_POLICY}"\n/>\n</head><body>${"<p>PCD</p>".repeat(300)}</body></html>`,
    "functions.js": `console.log("functions");${" ".repeat(2000)}`,
    "taskpane-app.0d66b012.js": `console.log("app");${"/* padding */".repeat(200)}`,
    "functions.json": JSON.stringify({ functions: [] }),
    "manifest.xml": "<OfficeApp/>",
    "assets/icon-16.png": "png",
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dist, name)), { recursive: true });
    writeFileSync(path.join(dist, name), content);
  }
  return dist;
}
