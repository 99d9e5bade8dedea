// With --dist the gateway also serves the built add-in, on the same origin as the data, with the
// production server's security and cache headers; the API and sign-in stay where they are.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunningGateway } from "../../src/gateway/gateway-app";
import { memoryStore } from "./support/memory-store";
import { startService, startTeamGateway, type ServiceUnderTest } from "./support/team";

const POLICY = "default-src 'self'; script-src 'self'";

let service: ServiceUnderTest;
let dist: string;
let gateway: RunningGateway;

beforeAll(async () => {
  service = await startService();
  dist = await mkdtemp(path.join(tmpdir(), "pcd-gateway-dist-"));
  await writeFile(
    path.join(dist, "taskpane.html"),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${POLICY}"></head><body>PCD pane</body></html>`,
  );
  await writeFile(path.join(dist, "taskpane.0123abcd.js"), "console.log('pane');");
  gateway = await startTeamGateway(service, memoryStore(), { dist });
});

afterAll(async () => {
  await gateway.close();
  await service.close();
  await rm(dist, { recursive: true, force: true });
});

test.each([
  ["the pane's page", "/taskpane.html", /PCD pane/],
  ["the site's root", "/", /PCD pane/],
  ["a script", "/taskpane.0123abcd.js", /console\.log/],
])("%s is served with the page's content security policy", async (_case, pathname, body) => {
  const response = await fetch(`${gateway.url}${pathname}`);
  expect(response.status).toBe(200);
  expect(await response.text()).toMatch(body);
  expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
  expect(response.headers.get("cache-control")).not.toBeNull();
});

test("sign-in and the API keep their own answers beside the site", async () => {
  const signIn = await fetch(`${gateway.url}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "nobody@example.com", password: "x" }),
  });
  expect(signIn.status).toBe(401);
  expect((await fetch(`${gateway.url}/api/energy_price/v1/export/series`)).status).toBe(401);
});
