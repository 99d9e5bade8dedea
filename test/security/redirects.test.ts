// Credentials never follow a redirect to another origin. Two loopback servers: the
// "service" answers with redirects, the "elsewhere" server records everything it receives.
// The real Auth and the real service client run over Node's own fetch (undici), which
// follows redirects by itself unless told otherwise; the browser's form of a refused
// redirect (an opaque answer with status 0) is played by a fake fetch.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Auth } from "../../src/core/auth";
import type { EngineSettings } from "../../src/core/engine-api";
import type { FetchLike } from "../../src/core/environment";
import { PcdError } from "../../src/core/errors";
import { createServiceClient, operationUrl } from "../../src/core/http";
import { DEFAULT_SETTINGS } from "../../src/core/settings";

const PASSWORD = "correct-horse-battery-staple";
const TOKEN = "token-for-the-service-only-0123456789";

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

interface Loopback {
  server: Server;
  origin: string;
  received: Received[];
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

type Handler = (request: IncomingMessage, body: string) => Answer;

async function listen(handler: Handler): Promise<Loopback> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        authorization: request.headers.authorization,
        body,
      });
      const answer = handler(request, body);
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, received };
}

function close(loopback: Loopback | undefined): Promise<void> {
  return new Promise((resolve) => (loopback ? loopback.server.close(() => resolve()) : resolve()));
}

const clock = { now: () => Date.UTC(2026, 10, 10, 18) };
const realFetch: FetchLike = (input, init) => fetch(input, init);

let elsewhere: Loopback;
let service: Loopback;
/** Where the service sends each path (set per test). */
let redirects: Record<string, string> = {};

beforeAll(async () => {
  elsewhere = await listen(() => ({
    status: 200,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ access_token: "stolen", message: "thanks" }),
  }));
  service = await listen((request): Answer => {
    const path = request.url ?? "";
    const target = Object.hasOwn(redirects, path) ? redirects[path] : undefined;
    if (target !== undefined) return { status: 307, headers: { Location: target } };
    if (path === "/auth/moved/access_token/v1") {
      return {
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ access_token: TOKEN }),
      };
    }
    if (path.endsWith("/data_limits")) {
      return { status: 200, headers: { "Content-Type": "application/json" }, body: "[]" };
    }
    return { status: 404 };
  });
});

afterAll(async () => {
  await close(service);
  await close(elsewhere);
});

beforeEach(() => {
  redirects = {};
  elsewhere.received.length = 0;
  service.received.length = 0;
});

function settings(): EngineSettings {
  return { ...DEFAULT_SETTINGS, baseUrl: `${service.origin}/svc`, authUrl: `${service.origin}/auth` };
}

async function failure(work: Promise<unknown>): Promise<PcdError> {
  const error = await work.then(
    () => new Error("expected a failure"),
    (caught: unknown) => caught,
  );
  if (!(error instanceof PcdError)) throw error;
  return error;
}

describe("sign-in (the password in the body)", () => {
  test.each([
    ["307 to another port", () => `${elsewhere.origin}/access_token/v1`],
    ["308 to another port", () => `${elsewhere.origin}/steal`],
    ["a relative address on another host", () => `//localhost:${new URL(elsewhere.origin).port}/x`],
  ])("%s: refused, and the other origin receives nothing", async (_case, target) => {
    redirects = { "/auth/access_token/v1": target() };
    const auth = new Auth({ fetch: realFetch, clock, settings });
    const error = await failure(auth.signIn("analyst", PASSWORD));
    expect(error.kind).toBe("protocol");
    expect(error.message).toMatch(
      /^Sign-in failed: The service redirected the sign-in to another address \(http:\/\/(127\.0\.0\.1|localhost):\d+\); PCD does not send your password there\./,
    );
    expect(error.message).not.toContain(PASSWORD);
    expect(auth.status().signedIn).toBe(false);
    // The service got the one sign-in; the other origin got nothing at all.
    expect(service.received).toHaveLength(1);
    expect(elsewhere.received).toEqual([]);
  });

  test("a redirect within the service's origin is followed with the same request", async () => {
    redirects = { "/auth/access_token/v1": "/auth/moved/access_token/v1" };
    const auth = new Auth({ fetch: realFetch, clock, settings });
    await expect(auth.signIn("analyst", PASSWORD)).resolves.toMatchObject({ signedIn: true });
    expect(service.received.map((request) => [request.method, request.url])).toEqual([
      ["POST", "/auth/access_token/v1"],
      ["POST", "/auth/moved/access_token/v1"],
    ]);
    expect(JSON.parse(service.received[1]?.body ?? "{}")).toEqual({
      username: "analyst",
      password: PASSWORD,
    });
    expect(elsewhere.received).toEqual([]);
  });

  test("a redirect loop within the origin ends with a message", async () => {
    redirects = { "/auth/access_token/v1": "/auth/access_token/v1" };
    const auth = new Auth({ fetch: realFetch, clock, settings });
    const error = await failure(auth.signIn("analyst", PASSWORD));
    expect(error.message).toMatch(/redirected the sign-in more than 5 times/);
    expect(service.received).toHaveLength(6);
  });
});

describe("data calls (the access token in a header)", () => {
  const tokens = { token: async () => TOKEN, renew: async () => TOKEN };

  test("a redirect of Data Limits to another origin is refused; the token goes nowhere else", async () => {
    const path = new URL(operationUrl(settings(), "live", "energy_price", "data_limits")).pathname;
    redirects = { [path]: `${elsewhere.origin}/v1/data_limits` };
    const client = createServiceClient({
      fetch: realFetch,
      clock,
      auth: tokens,
      settings,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    const error = await failure(client.dataLimits("energy_price"));
    expect(error.kind).toBe("protocol");
    expect(error.message).toMatch(
      /^The service redirected the Data Limits call to another address \(http:\/\/127\.0\.0\.1:\d+\); PCD does not send your access token there\./,
    );
    expect(error.message).not.toContain(TOKEN);
    // Not retried (a redirect will not go away), and never sent on.
    expect(service.received).toHaveLength(1);
    expect(service.received[0]?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(elsewhere.received).toEqual([]);
  });

  test("a redirect from the service to plain http on the same host and port is still another origin", async () => {
    // https -> http keeps host and port but changes the scheme: another origin. Played
    // with a fake fetch (no TLS server needed): the answer Node's fetch gives for "manual".
    const seen: string[] = [];
    const fake: FetchLike = async (input, init) => {
      seen.push(`${input} ${init?.redirect ?? "follow"}`);
      return new Response(null, {
        status: 308,
        headers: { Location: "http://api.pcd.example/v1/data_limits" },
      });
    };
    const client = createServiceClient({
      fetch: fake,
      clock,
      auth: tokens,
      settings: () => ({ ...DEFAULT_SETTINGS, baseUrl: "https://api.pcd.example" }),
      retry: { maxRetries: 0 },
    });
    const error = await failure(client.dataLimits("energy_price"));
    expect(error.message).toMatch(/another address \(http:\/\/api\.pcd\.example\)/);
    expect(seen).toEqual([expect.stringMatching(/^https:\/\/api\.pcd\.example\/.*data_limits manual$/)]);
  });

  test("in a browser (an opaque redirect, status 0) the redirect is refused without guessing the target", async () => {
    const opaque = {
      type: "opaqueredirect",
      status: 0,
      ok: false,
      headers: new Headers(),
      body: null,
      text: async () => "",
    } as unknown as Response;
    const auth = new Auth({ fetch: async () => opaque, clock, settings });
    const error = await failure(auth.signIn("analyst", PASSWORD));
    expect(error.message).toMatch(
      /^Sign-in failed: The service redirected the sign-in to another address \(an address the browser does not disclose\); PCD does not send your password there/,
    );
    const client = createServiceClient({
      fetch: async () => opaque,
      clock,
      auth: tokens,
      settings,
      retry: { maxRetries: 0 },
    });
    const dataError = await failure(client.dataLimits("energy_price"));
    expect(dataError.message).toMatch(/redirected the Data Limits call to another address/);
    expect(dataError.message).not.toContain(TOKEN);
  });
});
