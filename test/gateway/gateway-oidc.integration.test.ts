// Organisation sign-in at the gateway, against the emulator as the service and a local OpenID
// issuer: a member is added at their first request with no password, refusals name their reason
// and never the token, blocked members are refused whatever their token, and the gateway's own
// password sign-in goes on working beside it.
import type { JWTPayload } from "jose";
import type { RunningGateway } from "../../src/gateway/gateway-app";
import { until } from "../support/until";
import { memoryStore, type MemoryStore } from "./support/memory-store";
import { startTestIssuer, type TestIssuer } from "./support/oidc-issuer";
import { startService, startTeamGateway, type ServiceUnderTest } from "./support/team";

const AUDIENCE = "9d3a1c2e-gateway-client-id";
const TENANT = "11111111-2222-3333-4444-555555555555";
const PASSWORD = "correct horse battery staple";
const SERIES_INFO = "/api/energy_price/v1/export/series";

let service: ServiceUnderTest;
let issuer: TestIssuer;
let store: MemoryStore;
let gateway: RunningGateway;

beforeAll(async () => {
  service = await startService();
  issuer = await startTestIssuer();
  store = memoryStore();
  await store.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
  gateway = await startTeamGateway(service, store, {
    domain: "example.com",
    oidc: { issuer: issuer.url, audience: AUDIENCE, tenants: [TENANT] },
  });
});

afterAll(async () => {
  await gateway.close();
  await issuer.close();
  await service.close();
});

/** An organisation token for `email`, valid for an hour from the gateway's clock. */
function organisationToken(email: string, changes: JWTPayload = {}): Promise<string> {
  const now = Math.floor(service.now() / 1000);
  return issuer.sign({
    iss: issuer.url,
    aud: AUDIENCE,
    tid: TENANT,
    preferred_username: email,
    iat: now,
    exp: now + 3600,
    ...changes,
  });
}

async function get(path: string, token: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, text: await response.text() };
}

async function signIn(username: string, password: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gateway.url}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  return { status: response.status, text: await response.text() };
}

test("an organisation token adds its member at the first request: no password, no budget, audited by name", async () => {
  expect(await store.members.find("dan@example.com")).toBeNull();
  const token = await organisationToken("Dan@Example.com");
  const answer = await get(SERIES_INFO, token);
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.text)).toEqual(expect.any(Array));
  expect(await store.members.find("dan@example.com")).toEqual({
    email: "dan@example.com",
    admin: false,
    budget: null,
    blocked: false,
  });
  // The next request finds the member, and the audit names them.
  const [code] = (JSON.parse(answer.text) as Array<{ code: string }>).map((record) => record.code);
  expect((await get(`/api/energy_price/v1/export/series/${code ?? ""}`, token)).status).toBe(200);
  const audited = await until(
    () => store.served.map((served) => [served.member, served.code]),
    (rows) => rows.some(([member]) => member === "dan@example.com"),
    "dan's answer in the audit",
  );
  expect(audited).toContainEqual(["dan@example.com", code]);
  // No password lets them sign in at the gateway's own form.
  expect((await store.members.list()).filter((member) => member.email === "dan@example.com")).toHaveLength(1);
  for (const password of ["none", PASSWORD])
    expect((await signIn("dan@example.com", password)).status).toBe(401);
});

test.each([
  { case: "expired", changes: () => ({ exp: Math.floor(service.now() / 1000) - 120 }), reason: "expired" },
  { case: "of another tenant", changes: () => ({ tid: "other-tenant" }), reason: "tenant not allowed" },
  { case: "for another application", changes: () => ({ aud: "another-app" }), reason: "wrong audience" },
])("a token $case is refused with 401 naming it, and adds nobody", async ({ changes, reason }) => {
  const token = await organisationToken("fay@example.com", changes());
  const answer = await get(SERIES_INFO, token);
  expect(answer.status).toBe(401);
  expect(JSON.parse(answer.text)).toEqual({
    message: expect.stringContaining(`Invalid access token: ${reason}`),
  });
  expect(answer.text).not.toContain(token);
  expect(await store.members.find("fay@example.com")).toBeNull();
});

test("a blocked member is refused with 403 naming it, for an organisation token and a gateway token alike", async () => {
  const passwordToken = JSON.parse((await signIn("ann@example.com", PASSWORD)).text) as {
    access_token: string;
  };
  const organisation = await organisationToken("ann@example.com");
  expect((await get(SERIES_INFO, passwordToken.access_token)).status).toBe(200);
  expect((await get(SERIES_INFO, organisation)).status).toBe(200);

  await store.members.setBlocked("ann@example.com", true);
  const blocked = {
    message: "Member ann@example.com is blocked at this gateway: ask the gateway's administrator.",
  };
  for (const token of [passwordToken.access_token, organisation]) {
    const answer = await get(SERIES_INFO, token);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toEqual(blocked);
  }
  const refused = await signIn("ann@example.com", PASSWORD);
  expect(refused.status).toBe(403);
  expect(JSON.parse(refused.text)).toEqual(blocked);

  await store.members.setBlocked("ann@example.com", false);
  expect((await get(SERIES_INFO, organisation)).status).toBe(200);
  expect((await get(SERIES_INFO, passwordToken.access_token)).status).toBe(200);
});

test("a member blocked before their first organisation request stays blocked when it comes", async () => {
  await store.members.ensure("gus@example.com");
  await store.members.setBlocked("gus@example.com", true);
  expect((await get(SERIES_INFO, await organisationToken("gus@example.com"))).status).toBe(403);
});
