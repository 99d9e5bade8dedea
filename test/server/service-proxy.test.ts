// The relay's hardening, against fake upstreams on loopback: what an upstream failure
// tells the add-in, which headers cross in either direction, what an answer is served as,
// which methods and how large a body pass, and how long the relay waits for the service.
import { rmSync } from "node:fs";
import { startServer, type RunningServer } from "../../src/server/app";
import { DEFAULT_LIMITS, type ServerLimits } from "../../src/server/relay-limits";
import { parseServeArgs } from "../../src/server/serve-args";
import { FAKE_POLICY, writeFakeDist } from "./support/fake-dist";
import {
  startRecordingUpstream,
  type RecordingUpstream,
  type UpstreamBehaviour,
} from "./support/recording-upstream";

let dist: string;
beforeAll(() => {
  dist = writeFakeDist();
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/**
 * For an upstream that never answers: a short wait is reached whatever the machine's load.
 * Every other test keeps the real wait, so a busy machine cannot turn an answer into a 504.
 */
const SILENT_LIMITS: ServerLimits = { ...DEFAULT_LIMITS, upstreamMs: 300 };

async function relayTo(proxyTo: string, limits: ServerLimits = DEFAULT_LIMITS): Promise<RunningServer> {
  return startServer(parseServeArgs(["--port", "0", "--dist", dist, "--proxy-to", proxyTo]), limits);
}

/** An upstream and a relay to it for one test; both closed whatever the test does. */
async function withRelay(
  behaviour: UpstreamBehaviour | undefined,
  test: (server: RunningServer, upstream: RecordingUpstream) => Promise<void>,
  limits: ServerLimits = DEFAULT_LIMITS,
): Promise<void> {
  const upstream = await startRecordingUpstream(behaviour);
  try {
    const server = await relayTo(upstream.url, limits);
    try {
      await test(server, upstream);
    } finally {
      await server.close();
    }
  } finally {
    await upstream.close();
  }
}

function expectServedAsData(response: Response): void {
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(response.headers.get("content-security-policy")).toBe("sandbox");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("an upstream that fails", () => {
  test("unreachable: a generic 502 naming no address or socket error", async () => {
    const server = await relayTo("http://127.0.0.1:1");
    try {
      const response = await fetch(`${server.url}/service/access_token/v1`, { method: "POST", body: "{}" });
      expect(response.status).toBe(502);
      expectServedAsData(response);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({ error: "The relay could not get an answer from the service." });
      expect(body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|connect/i);
    } finally {
      await server.close();
    }
  });

  test("silent: a 504 once the configured wait is over, not a request held open", async () => {
    await withRelay(
      "silent",
      async (server, upstream) => {
        const response = await fetch(`${server.url}/service/energy_price/v1/export/series`);
        expect(response.status).toBe(504);
        expectServedAsData(response);
        expect(await response.json()).toEqual({ error: "The service did not answer the relay in time." });
        expect(upstream.received).toHaveLength(1);
      },
      SILENT_LIMITS,
    );
  });
});

test("an answer's cookies, CORS grants, server names and HTML type do not reach the add-in's origin", async () => {
  const hostile: UpstreamBehaviour = {
    status: 200,
    headers: {
      "content-type": "text/html",
      "set-cookie": ["session=evil; Path=/", "other=1"],
      server: "nginx/1.2.3",
      "x-powered-by": "Express",
      "access-control-allow-origin": "*",
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "*",
      "content-security-policy": "default-src *",
      "retry-after": "7",
    },
    body: "<script>alert(document.domain)</script>",
  };
  await withRelay(hostile, async (server) => {
    const response = await fetch(`${server.url}/service/x`);
    expect(response.status).toBe(200);
    expectServedAsData(response);
    for (const name of [
      "set-cookie",
      "server",
      "x-powered-by",
      "access-control-allow-origin",
      "access-control-allow-credentials",
      "access-control-expose-headers",
    ]) {
      expect([name, response.headers.get(name)]).toEqual([name, null]);
    }
    expect(response.headers.get("retry-after")).toBe("7"); // what PCD reads still crosses
    expect(await response.text()).toBe("<script>alert(document.domain)</script>");
  });
});

test("the pages keep their own policy: only relayed answers are sandboxed", async () => {
  await withRelay(undefined, async (server) => {
    const page = await fetch(`${server.url}/taskpane.html`);
    expect(page.headers.get("content-security-policy")).toBe(FAKE_POLICY);
    expect(page.headers.get("content-type")).toContain("text/html");
  });
});

test("forwarding claims and proxy credentials of the client are not sent upstream", async () => {
  await withRelay(undefined, async (server, upstream) => {
    const response = await fetch(`${server.url}/service/x`, {
      headers: {
        authorization: "Bearer the-token",
        "x-forwarded-for": "10.0.0.1",
        "x-forwarded-host": "evil.example",
        "x-forwarded-proto": "http",
        forwarded: "for=10.0.0.1;host=evil.example",
        "proxy-authorization": "Basic c2VjcmV0",
        "x-real-ip": "10.0.0.1",
      },
    });
    expect(response.status).toBe(200);
    const [received] = upstream.received;
    expect(received?.headers.authorization).toBe("Bearer the-token");
    for (const name of [
      "x-forwarded-for",
      "x-forwarded-host",
      "x-forwarded-proto",
      "forwarded",
      "proxy-authorization",
      "x-real-ip",
    ]) {
      expect([name, received?.headers[name]]).toEqual([name, undefined]);
    }
  });
});

test.each(["DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"])("%s: 405, nothing sent upstream", async (method) => {
  await withRelay(undefined, async (server, upstream) => {
    const response = await fetch(`${server.url}/service/x`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    expect(upstream.received).toEqual([]);
  });
});

describe("request bodies", () => {
  const limit = DEFAULT_LIMITS.bodyBytes;

  function chunked(text: string): ReadableStream<Uint8Array> {
    const bytes = new TextEncoder().encode(text);
    return new ReadableStream({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 8192) controller.enqueue(bytes.slice(at, at + 8192));
        controller.close();
      },
    });
  }

  test.each([
    ["a declared length over the limit", "x".repeat(limit + 1), false],
    ["a chunked body that grows over the limit", "x".repeat(limit + 1), true],
  ])("%s: 413, nothing sent upstream", async (_name, body, streamed) => {
    await withRelay(undefined, async (server, upstream) => {
      const response = await fetch(`${server.url}/service/x`, {
        method: "POST",
        body: streamed ? chunked(body) : body,
        ...(streamed ? { duplex: "half" } : {}),
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(upstream.received).toEqual([]);
    });
  });

  test.each([
    ["declared", false],
    ["chunked", true],
  ])("a body of exactly the limit (%s) reaches the upstream whole", async (_name, streamed) => {
    const body = "y".repeat(limit);
    await withRelay(undefined, async (server, upstream) => {
      const response = await fetch(`${server.url}/service/x`, {
        method: "POST",
        body: streamed ? chunked(body) : body,
        ...(streamed ? { duplex: "half" } : {}),
      } as RequestInit);
      expect(response.status).toBe(200);
      expect(upstream.received.map((request) => request.body)).toEqual([body]);
    });
  });
});
