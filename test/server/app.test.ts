// npm run serve's server: headers, cache policy, compression, health and client timeouts
// on a small built add-in; the relay against the emulator (sign-in and a data call, with no CORS on the
// emulator) and against a recording upstream (what is forwarded, what is refused).
import { once } from "node:events";
import { rmSync } from "node:fs";
import { writeFileSync, mkdtempSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { generate } from "selfsigned";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { buildServer, startServer, type RunningServer } from "../../src/server/app";
import { DEFAULT_LIMITS } from "../../src/server/relay-limits";
import { parseServeArgs } from "../../src/server/serve-args";
import { FAKE_POLICY, writeFakeDist } from "./support/fake-dist";
import { rawRequest } from "./support/raw-request";
import { startRecordingUpstream, type RecordingUpstream } from "./support/recording-upstream";

let dist: string;
beforeAll(() => {
  dist = writeFakeDist();
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

function options(...argv: string[]) {
  return parseServeArgs(["--port", "0", "--dist", dist, ...argv]);
}

describe("static files", () => {
  test.each([
    ["/", "text/html", "no-cache"],
    ["/taskpane.html", "text/html", "no-cache"],
    ["/functions.json", "application/json", "no-cache"],
    ["/manifest.xml", "xml", "no-cache"],
    ["/functions.js", "javascript", "no-cache"],
    ["/taskpane-app.0d66b012.js", "javascript", "public, max-age=31536000, immutable"],
  ])("%s: security headers and its cache policy", async (url, type, cacheControl) => {
    const app = await buildServer(options());
    try {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toContain(type);
      expect(response.headers["cache-control"]).toBe(cacheControl);
      expect(response.headers["content-security-policy"]).toBe(FAKE_POLICY);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["referrer-policy"]).toBe("no-referrer");
      expect(response.headers["strict-transport-security"]).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  test("compresses what is worth it", async () => {
    const app = await buildServer(options());
    try {
      for (const url of ["/taskpane.html", "/functions.js"]) {
        const response = await app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
        expect([url, response.headers["content-encoding"]]).toEqual([url, "gzip"]);
      }
    } finally {
      await app.close();
    }
  });

  test("nothing outside dist/, and no dot files", async () => {
    writeFileSync(path.join(dist, ".env"), "SECRET=1");
    const app = await buildServer(options());
    try {
      for (const url of ["/../package.json", "/%2e%2e/package.json", "/.env"]) {
        const response = await app.inject({ method: "GET", url });
        expect([url, response.statusCode]).toEqual([url, expect.any(Number)]);
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(response.body).not.toContain("SECRET");
        expect(response.body).not.toContain("pcd-excel-addin");
      }
    } finally {
      await app.close();
    }
  });

  test("a folder without a build is refused at start, saying to build", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "pcd-empty-"));
    try {
      await expect(buildServer(parseServeArgs(["--dist", empty]))).rejects.toThrow(/npm run build/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

test("GET /healthz: 200 with status and version", async () => {
  const app = await buildServer(options());
  try {
    const response = await app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  } finally {
    await app.close();
  }
});

test("over TLS: HSTS too", async () => {
  const folder = mkdtempSync(path.join(tmpdir(), "pcd-tls-"));
  try {
    const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], { keySize: 2048 });
    writeFileSync(path.join(folder, "cert.pem"), pems.cert);
    writeFileSync(path.join(folder, "key.pem"), pems.private);
    const server = await startServer(
      options("--cert", path.join(folder, "cert.pem"), "--key", path.join(folder, "key.pem")),
    );
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const response = await server.app.inject({ method: "GET", url: "/taskpane.html" });
      expect(response.headers["strict-transport-security"]).toBe("max-age=31536000");
    } finally {
      await server.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("without --proxy-to, /service/ says how to turn the relay on", async () => {
  const app = await buildServer(options());
  try {
    const response = await app.inject({ method: "POST", url: "/service/access_token/v1", payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain("--proxy-to");
  } finally {
    await app.close();
  }
});

describe("the relay to the emulator (which sends no CORS headers)", () => {
  let emulator: RunningEmulator;
  let server: RunningServer;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, quiet: true, cors: false, now: "2026-11-10T15:00:00Z" });
    server = await startServer(options("--proxy-to", emulator.url));
  });
  afterAll(async () => {
    await server?.close();
    await emulator?.close();
  });

  test("a sign-in, then a data call with the token", async () => {
    const signIn = await fetch(`${server.url}/service/access_token/v1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: emulator.username, password: emulator.password }),
    });
    expect(signIn.status).toBe(200);
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    expect(token).toMatch(/^ey/);

    const series = await fetch(`${server.url}/service/energy_price/v1/export/series`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(series.status).toBe(200);
    expect(((await series.json()) as unknown[]).length).toBeGreaterThan(0);

    const refused = await fetch(`${server.url}/service/energy_price/v1/export/series`);
    expect(refused.status).toBe(401); // no Authorization: the emulator's own answer comes back
  });

  test("a wrong password comes back as the service said it", async () => {
    const signIn = await fetch(`${server.url}/service/access_token/v1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: emulator.username, password: "wrong" }),
    });
    expect(signIn.status).toBe(401);
  });
});

describe("the relay forwards to its one upstream only", () => {
  let upstream: RecordingUpstream;
  let other: RecordingUpstream;
  let server: RunningServer;
  beforeAll(async () => {
    upstream = await startRecordingUpstream();
    other = await startRecordingUpstream();
    server = await startServer(options("--proxy-to", `${upstream.url}/gateway`));
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await other?.close();
  });
  beforeEach(() => {
    upstream.received.length = 0;
    other.received.length = 0;
  });

  test("method, path under the upstream's own path, query, body and Authorization as they came; no cookie", async () => {
    const response = await fetch(`${server.url}/service/energy_price/v1/export/series/A%2CB?x=1`, {
      method: "POST",
      headers: {
        authorization: "Bearer the-token",
        "content-type": "application/json",
        cookie: "addin-session=1",
      },
      body: '{"codes":["A"]}',
    });
    expect(response.status).toBe(200);
    expect(upstream.received).toHaveLength(1);
    const [forwarded] = upstream.received;
    expect(forwarded).toMatchObject({
      method: "POST",
      url: "/gateway/energy_price/v1/export/series/A%2CB?x=1",
      body: '{"codes":["A"]}',
    });
    expect(forwarded?.headers.authorization).toBe("Bearer the-token");
    expect(forwarded?.headers.cookie).toBeUndefined();
  });

  test.each([
    "GET /service/../x HTTP/1.1",
    "GET /service/%2e%2e/x HTTP/1.1",
    "GET /service/a/%2E%2E/%2e%2e/x HTTP/1.1",
    "GET /service/a%2F..%2F..%2Fx HTTP/1.1",
    "GET /service/..%5cx HTTP/1.1",
    "GET /service//evil.example/x HTTP/1.1",
    "GET /service/http://evil.example/x HTTP/1.1",
  ])("refuses %s, sending nothing", async (requestLine) => {
    const status = await rawRequest(server.url, requestLine);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(upstream.received).toEqual([]);
  });

  test("an absolute request target for another host reaches neither that host nor the upstream", async () => {
    const status = await rawRequest(server.url, `GET ${other.url}/service/x HTTP/1.1`);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(other.received).toEqual([]);
    expect(upstream.received).toEqual([]);
  });

  test("a Host header naming another server changes nothing: the upstream gets it", async () => {
    const status = await rawRequest(server.url, "GET /service/x HTTP/1.1", new URL(other.url).host);
    expect(status).toBe(200);
    expect(upstream.received.map((request) => request.url)).toEqual(["/gateway/x"]);
    expect(other.received).toEqual([]);
  });
});

test("connections that never finish their headers are cut off after the configured time, and the server still answers", async () => {
  // Short enough for a quick test, long enough that the healthy request after them sends its
  // headers in time on a busy machine.
  const limits = { ...DEFAULT_LIMITS, headersMs: 1_000, requestMs: 2_000, checkIntervalMs: 100 };
  const server = await startServer(options(), limits);
  const { hostname, port } = new URL(server.url);
  const sockets: Socket[] = [];
  try {
    const closed = Array.from({ length: 5 }, async () => {
      const socket = connect(Number(port), hostname);
      sockets.push(socket);
      await once(socket, "connect");
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `);
      socket.resume();
      await once(socket, "close");
    });
    await Promise.all(closed);
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
  } finally {
    for (const socket of sockets) socket.destroy();
    await server.close();
  }
});
