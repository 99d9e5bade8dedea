// Organisation sign-in's checks, against a local issuer (test/gateway/support/oidc-issuer.ts):
// each refusal names its reason and never the token; tokens within the clock tolerance pass;
// keys rotate without a new verifier; the keys are read once and cached.
import { SignJWT, type JWTPayload } from "jose";
import { oidcVerifier, type OidcVerifier } from "../../../src/gateway/oidc/oidc-verifier";
import { startTestIssuer, type TestIssuer } from "../support/oidc-issuer";

const NOW_S = Date.parse("2026-11-10T15:00:00Z") / 1000;
const AUDIENCE = "9d3a1c2e-gateway-client-id";
const TENANT = "11111111-2222-3333-4444-555555555555";

let issuer: TestIssuer;

beforeAll(async () => {
  issuer = await startTestIssuer();
});

afterAll(async () => {
  await issuer.close();
});

function verifier(options: { domain?: string | null; tenants?: string[] } = {}): OidcVerifier {
  return oidcVerifier({
    issuer: issuer.url,
    audience: AUDIENCE,
    tenants: options.tenants ?? [TENANT],
    domain: options.domain === undefined ? "example.com" : options.domain,
    now: () => NOW_S * 1000,
    fetch: (input, init) => fetch(input, init),
    keysCooldownMs: 0,
  });
}

/** A good token's claims for Ann, with the row's changes (undefined removes a claim). */
function claims(changes: Partial<Record<string, unknown>> = {}): JWTPayload {
  const base: Record<string, unknown> = {
    iss: issuer.url,
    aud: AUDIENCE,
    tid: TENANT,
    preferred_username: "Ann@Example.com",
    iat: NOW_S - 10,
    nbf: NOW_S - 10,
    exp: NOW_S + 3600,
  };
  const merged = { ...base, ...changes };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

test.each([
  {
    case: "a wrong signature",
    make: () => issuer.forge(claims(), issuer.currentKid()),
    reason: "bad signature",
  },
  {
    case: "a wrong issuer",
    make: () => issuer.sign(claims({ iss: "https://elsewhere.example" })),
    reason: "wrong issuer",
  },
  {
    case: "a wrong audience",
    make: () => issuer.sign(claims({ aud: "another-app" })),
    reason: "wrong audience",
  },
  {
    case: "a tenant not allowed",
    make: () => issuer.sign(claims({ tid: "other-tenant" })),
    reason: "tenant not allowed (other-tenant)",
  },
  {
    case: "no tenant",
    make: () => issuer.sign(claims({ tid: undefined })),
    reason: "tenant not allowed (no tid claim)",
  },
  {
    case: "a domain not allowed",
    make: () => issuer.sign(claims({ preferred_username: "eve@elsewhere.test" })),
    reason: "domain not allowed (eve@elsewhere.test is not in example.com)",
  },
  {
    case: "expired beyond the tolerance",
    make: () => issuer.sign(claims({ exp: NOW_S - 61 })),
    reason: "expired",
  },
  {
    case: "not yet valid beyond the tolerance",
    make: () => issuer.sign(claims({ nbf: NOW_S + 61 })),
    reason: "not yet valid",
  },
  {
    case: "no expiry",
    make: () => issuer.sign(claims({ exp: undefined })),
    reason: "the claim exp is missing or wrong",
  },
  {
    case: "no email claim",
    make: () => issuer.sign(claims({ preferred_username: undefined })),
    reason: "no email address in the token",
  },
  {
    case: "an HS256 token (the key is no secret)",
    make: () =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: "HS256", kid: issuer.currentKid() })
        .sign(new TextEncoder().encode("a secret anyone could pick, 32 bytes")),
    reason: "bad signature (algorithm not allowed)",
  },
  { case: "not a token", make: async () => "not.a.token", reason: "malformed" },
  {
    case: "an email address the issuer says it has not verified",
    make: () => issuer.sign(claims({ email: "ceo@example.com", email_verified: false })),
    reason: "the issuer has not verified the email address",
  },
])("refused: $case (401 naming the reason, never the token)", async ({ make, reason }) => {
  const token = await make();
  const outcome = await verifier().verify(token);
  expect(outcome).toEqual({ status: 401, message: `Invalid access token: ${reason}. Sign in again.` });
  expect(JSON.stringify(outcome)).not.toContain(token);
});

test.each([
  { case: "a good token", changes: {}, email: "ann@example.com" },
  { case: "expired within the tolerance", changes: { exp: NOW_S - 50 }, email: "ann@example.com" },
  {
    case: "valid from within the tolerance",
    changes: { nbf: NOW_S + 50, iat: NOW_S + 50 },
    email: "ann@example.com",
  },
  {
    case: "the email claim when there is no preferred_username",
    changes: { preferred_username: undefined, email: "Bob@Example.COM" },
    email: "bob@example.com",
  },
  {
    case: "the upn claim when there is neither",
    changes: { preferred_username: undefined, upn: "cid@example.com" },
    email: "cid@example.com",
  },
])("accepted: $case", async ({ changes, email }) => {
  expect(await verifier().verify(await issuer.sign(claims(changes)))).toEqual({ email });
});

test("an issuer whose discovery document does not come in time: 503, and the request is not held", async () => {
  const subject = oidcVerifier({
    issuer: issuer.url,
    audience: AUDIENCE,
    tenants: [TENANT],
    domain: "example.com",
    now: () => NOW_S * 1000,
    // Answers only when the read is given up (as an issuer that accepts and never answers).
    fetch: (_input, init) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      ),
    discoveryTimeoutMs: 20,
  });
  expect(await subject.verify(await issuer.sign(claims()))).toEqual({
    status: 503,
    message:
      "Organisation sign-in is unavailable: the issuer's discovery document could not be read. Try again later.",
  });
});

/**
 * A verifier for https://issuer.example whose discovery document is `document` (no network is
 * read for it); the addresses read go into `read`.
 */
function verifierDiscovering(document: Record<string, unknown>, read: string[] = []): OidcVerifier {
  return oidcVerifier({
    issuer: "https://issuer.example",
    audience: AUDIENCE,
    tenants: [TENANT],
    domain: "example.com",
    now: () => NOW_S * 1000,
    fetch: async (input) => {
      read.push(String(input));
      return new Response(JSON.stringify(document), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    },
  });
}

test.each([
  ["on http: not read", "http://127.0.0.1:1/keys", "the issuer's discovery document could not be read"],
  [
    "on https: read (nothing answers here)",
    "https://127.0.0.1:1/keys",
    "the issuer's keys could not be read",
  ],
])("an https issuer whose keys are %s", async (_case, jwksUri, reason) => {
  const subject = verifierDiscovering({ issuer: "https://issuer.example", jwks_uri: jwksUri });
  const token = await issuer.sign(claims({ iss: "https://issuer.example" }));
  expect(await subject.verify(token)).toEqual({
    status: 503,
    message: `Organisation sign-in is unavailable: ${reason}. Try again later.`,
  });
});

test.each([
  ["another issuer's", "https://other.example", "names another issuer"],
  ["the issuer's with a trailing slash", "https://issuer.example/", "names another issuer"],
  ["no", undefined, "names no issuer"],
])(
  "a discovery document that names %s identifier: 503, and its keys are not read",
  async (_case, named, reason) => {
    const read: string[] = [];
    const subject = verifierDiscovering({ issuer: named, jwks_uri: "https://issuer.example/keys" }, read);
    const token = await issuer.sign(claims({ iss: "https://issuer.example" }));
    expect(await subject.verify(token)).toEqual({
      status: 503,
      message: `Organisation sign-in is unavailable: the issuer's discovery document ${reason}. Try again later.`,
    });
    expect(read).toEqual(["https://issuer.example/.well-known/openid-configuration"]);
  },
);

test("without tenants or a domain, any tenant and address of the issuer is accepted", async () => {
  const token = await issuer.sign(claims({ tid: "other-tenant", preferred_username: "eve@elsewhere.test" }));
  expect(await verifier({ tenants: [], domain: null }).verify(token)).toEqual({
    email: "eve@elsewhere.test",
  });
});

test("the keys are read once and kept for the next tokens", async () => {
  const subject = verifier();
  const before = issuer.keyReads();
  for (let index = 0; index < 3; index += 1) {
    expect(await subject.verify(await issuer.sign(claims()))).toEqual({ email: "ann@example.com" });
  }
  expect(issuer.keyReads() - before).toBe(1);
});

test("a rotated key: the new key is accepted without a new verifier, the removed one is refused", async () => {
  const subject = verifier();
  const oldKid = issuer.currentKid();
  const oldToken = await issuer.sign(claims());
  expect(await subject.verify(oldToken)).toEqual({ email: "ann@example.com" });

  await issuer.rotate("ES256");
  issuer.retire(oldKid);
  expect(await subject.verify(await issuer.sign(claims()))).toEqual({ email: "ann@example.com" });
  expect(await subject.verify(oldToken)).toEqual({
    status: 401,
    message:
      "Invalid access token: bad signature (signed with a key the issuer does not publish). Sign in again.",
  });
});

test.each([
  {
    case: "to another origin: not followed",
    to: (url: string) => url.replace("127.0.0.1", "localhost"),
    accepted: false,
  },
  {
    case: "within the origin: followed",
    to: (url: string) => `${url}/.well-known/openid-configuration?again`,
    accepted: true,
  },
])("discovery redirected $case", async ({ to, accepted }) => {
  issuer.redirectDiscovery(to(issuer.url));
  try {
    const outcome = await verifier().verify(await issuer.sign(claims()));
    expect(outcome).toEqual(
      accepted
        ? { email: "ann@example.com" }
        : {
            status: 503,
            message:
              "Organisation sign-in is unavailable: the issuer's discovery document could not be read. Try again later.",
          },
    );
  } finally {
    issuer.redirectDiscovery(null);
  }
});
