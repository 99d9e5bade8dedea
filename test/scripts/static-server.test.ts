// The browser tests' static server: files inside its folder only, each with a validator the
// browser must check before reusing the file.
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

test("a file comes with its type, a validator and no-cache", async () => {
  const response = await fetch(`${site.url}/page.js`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-cache");
  expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
  expect(await response.text()).toBe("console.log(1);\n");
});

test("the validator of the file as it is gets 304 and no body", async () => {
  const etag = (await fetch(`${site.url}/page.js`)).headers.get("etag") ?? "";
  const response = await fetch(`${site.url}/page.js`, { headers: { "if-none-match": etag } });
  expect(response.status).toBe(304);
  expect(response.headers.get("etag")).toBe(etag);
  expect(await response.text()).toBe("");
});

test("a file rebuilt in place gets a new validator, so the old one gets the new file", async () => {
  const etag = (await fetch(`${site.url}/page.js`)).headers.get("etag") ?? "";
  await writeFile(path.join(folder, "page.js"), "console.log(22);\n");
  const later = new Date(Date.UTC(2030, 0, 1));
  await utimes(path.join(folder, "page.js"), later, later);
  const response = await fetch(`${site.url}/page.js`, { headers: { "if-none-match": etag } });
  expect(response.status).toBe(200);
  expect(response.headers.get("etag")).not.toBe(etag);
  expect(await response.text()).toBe("console.log(22);\n");
});

test.each([
  ["a file that is not there", "/missing.js"],
  ["the folder itself", "/"],
  ["a path out of the folder", "/%2e%2e/%2e%2e/etc/passwd"],
])("%s: 404", async (_name, pathname) => {
  const response = await fetch(`${site.url}${pathname}`);
  expect(response.status).toBe(404);
  expect(response.headers.get("etag")).toBeNull();
});
