import { createHash } from "node:crypto";
import {
  authorizeUrl,
  base64Url,
  codeChallenge,
  randomToken,
  readAuthorizeReturn,
  readTokenAnswer,
  tokenRequestBody,
} from "../../../src/host/org-sign-in/pkce";

const sha256 = (data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer> => {
  const digest = createHash("sha256").update(data).digest();
  return Promise.resolve(digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength));
};

describe("code verifier and challenge", () => {
  test.each<[string, string, string]>([
    // RFC 7636 appendix B.
    [
      "the RFC's example",
      "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    ],
    [
      "a verifier of 43 'a's",
      "a".repeat(43),
      base64Url(createHash("sha256").update("a".repeat(43)).digest()),
    ],
  ])("%s", async (_case, verifier, challenge) => {
    await expect(codeChallenge(verifier, sha256)).resolves.toBe(challenge);
  });

  test.each<[string, number, string]>([
    ["all zero bytes", 0, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["all 0xff bytes: base64url, no padding", 0xff, "__________________________________________8"],
  ])("a random token from %s", (_case, fill, expected) => {
    const token = randomToken((bytes) => bytes.fill(fill));
    expect(token).toBe(expected);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

test("the authorize address carries the client, the redirect, the scope, the state and the S256 challenge", () => {
  const url = new URL(
    authorizeUrl({
      authorizationEndpoint: "https://login.example.com/tenant/oauth2/v2.0/authorize?p=1",
      clientId: "client-1",
      redirectUri: "https://addin.example.com/dialog.html",
      scope: "api://gateway/access_as_user",
      state: "state-1",
      challenge: "challenge-1",
    }),
  );
  expect(Object.fromEntries(url.searchParams)).toEqual({
    p: "1",
    client_id: "client-1",
    response_type: "code",
    redirect_uri: "https://addin.example.com/dialog.html",
    scope: "openid profile offline_access api://gateway/access_as_user",
    state: "state-1",
    code_challenge: "challenge-1",
    code_challenge_method: "S256",
  });
});

describe("the issuer's answer on the way back", () => {
  test.each<[string, string, string | null, ReturnType<typeof readAuthorizeReturn>]>([
    ["a code for this state", "?code=abc&state=s1", "s1", { code: "abc" }],
    [
      "another state is refused",
      "?code=abc&state=s2",
      "s1",
      { refused: expect.stringContaining("state differs") },
    ],
    ["no state is refused", "?code=abc", "s1", { refused: expect.stringContaining("state differs") }],
    [
      "no pending sign-in is refused",
      "?code=abc&state=s1",
      null,
      { refused: expect.stringContaining("state differs") },
    ],
    [
      "an error with its description",
      "?error=access_denied&error_description=User+declined&state=s1",
      "s1",
      { refused: "access_denied: User declined" },
    ],
    ["an error alone", "?error=server_error&state=s1", "s1", { refused: "server_error" }],
    ["no code", "?state=s1", "s1", { refused: "the sign-in page sent no code" }],
  ])("%s", (_case, search, expectedState, expected) => {
    expect(readAuthorizeReturn(search, expectedState)).toEqual(expected);
  });
});

test.each<[string, Parameters<typeof tokenRequestBody>[0], Record<string, string>]>([
  [
    "a code with its verifier",
    { code: "c1", verifier: "v1", redirectUri: "https://addin.example.com/dialog.html" },
    {
      grant_type: "authorization_code",
      code: "c1",
      code_verifier: "v1",
      redirect_uri: "https://addin.example.com/dialog.html",
    },
  ],
  ["a refresh token", { refreshToken: "r1" }, { grant_type: "refresh_token", refresh_token: "r1" }],
])("the token request for %s", (_case, grant, expected) => {
  expect(Object.fromEntries(tokenRequestBody(grant, "client-1", "api://gw/x"))).toEqual({
    client_id: "client-1",
    scope: "openid profile offline_access api://gw/x",
    ...expected,
  });
});

describe("the token endpoint's answer", () => {
  test.each<[string, unknown, ReturnType<typeof readTokenAnswer>]>([
    [
      "a token with a refresh token",
      { access_token: "at", expires_in: 3599, refresh_token: "rt" },
      { accessToken: "at", expiresIn: 3599, refreshToken: "rt" },
    ],
    [
      "expires_in as text, no refresh token",
      { access_token: "at", expires_in: "3600" },
      { accessToken: "at", expiresIn: 3600, refreshToken: null },
    ],
    [
      "an OAuth error",
      { error: "invalid_grant", error_description: "bad code" },
      { refused: "invalid_grant: bad code" },
    ],
    ["no token", { expires_in: 10 }, { refused: "the token answer has no access_token" }],
    ["no lifetime", { access_token: "at" }, { refused: "the token answer has no valid expires_in" }],
    ["not an object", "at", { refused: "the token answer is not a JSON object" }],
  ])("%s", (_case, answer, expected) => {
    expect(readTokenAnswer(answer)).toEqual(expected);
  });
});
