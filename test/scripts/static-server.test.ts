// The static server of the browser tests: files inside its folder only, each with validators
// the browser must check before reusing the file.
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { serveFolder, type StaticServer } from "../../scripts/static-server";

let folder: string;
let site: StaticServer;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "pcd-static-"));
  await writeFile(path.join(folder, "page.js"), "console.log(1);\n");
  site = await serveFolder(folder);
});

afterEach(async () => {
  await site.close();
  await rm(folder, { recursive: true, force: true });
});

test("a file comes with its type, its validators and no-cache", async () => {
  const response = await fetch(`${site.url}/page.js`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
  expect(response.headers.get("cache-control")).toBe("no-cache");
  expect(response.headers.get("etag")).toMatch(/^(W\/)?"[^"]+"$/);
  expect(response.headers.get("last-modified")).not.toBeNull();
  expect(await response.text()).toBe("console.log(1);\n");
});

// Revalidation as Chromium asks for it (max-age=0). Node's fetch would add no-cache to a
// conditional request, which asks the server for the whole file again.
const revalidating = (etag: string) => ({ "if-none-match": etag, "cache-control": "max-age=0" });

test("the validator of the file as it is gets 304 and no body", async () => {
  const etag = (await fetch(`${site.url}/page.js`)).headers.get("etag") ?? "";
  const response = await fetch(`${site.url}/page.js`, { headers: revalidating(etag) });
  expect(response.status).toBe(304);
  expect(response.headers.get("etag")).toBe(etag);
  expect(await response.text()).toBe("");
});

test("a file rebuilt in place gets a new validator, so the old one gets the new file", async () => {
  const etag = (await fetch(`${site.url}/page.js`)).headers.get("etag") ?? "";
  await writeFile(path.join(folder, "page.js"), "console.log(22);\n");
  const later = new Date(Date.UTC(2030, 0, 1));
  await utimes(path.join(folder, "page.js"), later, later);
  const response = await fetch(`${site.url}/page.js`, { headers: revalidating(etag) });
  expect(response.status).toBe(200);
  expect(response.headers.get("etag")).not.toBe(etag);
  expect(await response.text()).toBe("console.log(22);\n");
});

test.each([
  ["a file that is not there", "/missing.js"],
  ["the folder itself", "/"],
  ["a path out of the folder", "/%2e%2e/%2e%2e/etc/passwd"],
  ["an escaped path out of the folder", "/..%2f..%2fetc%2fpasswd"],
])("%s: not served", async (_name, pathname) => {
  const response = await fetch(`${site.url}${pathname}`);
  expect([403, 404]).toContain(response.status);
  expect(await response.text()).not.toContain("root:");
  expect(response.headers.get("etag")).toBeNull();
});
