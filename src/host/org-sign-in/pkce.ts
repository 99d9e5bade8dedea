// The authorization code flow with PKCE (RFC 7636) that the Office dialog runs where nested
// app authentication is not available: the verifier and its challenge, the authorize
// address, and the reading of the issuer's answers. Pure functions: randomness and hashing
// are parameters, so tests give them fixed values.

/** base64url without padding (RFC 4648 §5), as PKCE and JWTs write bytes. */
export function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 32 random bytes as base64url: a 43-character code verifier (or state) from the unreserved set. */
export function randomToken(fillRandom: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>): string {
  return base64Url(fillRandom(new Uint8Array(32)));
}

/** The S256 challenge of a verifier: base64url(SHA-256(ASCII(verifier))). */
export async function codeChallenge(
  verifier: string,
  sha256: (data: Uint8Array<ArrayBuffer>) => Promise<ArrayBuffer>,
): Promise<string> {
  return base64Url(new Uint8Array(await sha256(new TextEncoder().encode(verifier))));
}

export interface AuthorizeRequest {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string;
  challenge: string;
}

/** Where the dialog sends the user to sign in (openid for the account's name, offline_access to renew). */
export function authorizeUrl(request: AuthorizeRequest): string {
  const url = new URL(request.authorizationEndpoint);
  url.searchParams.set("client_id", request.clientId);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("redirect_uri", request.redirectUri);
  url.searchParams.set("scope", `openid profile offline_access ${request.scope}`);
  url.searchParams.set("state", request.state);
  url.searchParams.set("code_challenge", request.challenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.toString();
}

export type AuthorizeReturn = { code: string } | { refused: string };

/**
 * The issuer's answer on the way back to the dialog page (its query): the code, or why
 * there is none. A state other than the one this dialog sent is refused: the answer was not
 * meant for it.
 */
export function readAuthorizeReturn(search: string, expectedState: string | null): AuthorizeReturn {
  const params = new URLSearchParams(search);
  const state = params.get("state");
  if (expectedState === null || state !== expectedState)
    return { refused: "the answer of the sign-in page was not for this sign-in (its state differs)" };
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description");
    return { refused: description ? `${error}: ${description}` : error };
  }
  const code = params.get("code");
  if (code === null || code === "") return { refused: "the sign-in page sent no code" };
  return { code };
}

/** The token endpoint's form for a code (with its verifier) or a refresh token. */
export function tokenRequestBody(
  grant: { code: string; verifier: string; redirectUri: string } | { refreshToken: string },
  clientId: string,
  scope: string,
): URLSearchParams {
  const body = new URLSearchParams({ client_id: clientId, scope: `openid profile offline_access ${scope}` });
  if ("code" in grant) {
    body.set("grant_type", "authorization_code");
    body.set("code", grant.code);
    body.set("code_verifier", grant.verifier);
    body.set("redirect_uri", grant.redirectUri);
  } else {
    body.set("grant_type", "refresh_token");
    body.set("refresh_token", grant.refreshToken);
  }
  return body;
}

export interface TokenAnswer {
  accessToken: string;
  /** Seconds the access token lives. */
  expiresIn: number;
  refreshToken: string | null;
}

/** The token endpoint's JSON answer, or why it is not one (never quoting a token). */
export function readTokenAnswer(answer: unknown): TokenAnswer | { refused: string } {
  if (typeof answer !== "object" || answer === null)
    return { refused: "the token answer is not a JSON object" };
  const fields = answer as Record<string, unknown>;
  if (typeof fields.error === "string") {
    const description = typeof fields.error_description === "string" ? `: ${fields.error_description}` : "";
    return { refused: `${fields.error}${description}` };
  }
  if (typeof fields.access_token !== "string" || fields.access_token === "")
    return { refused: "the token answer has no access_token" };
  const expiresIn = Number(fields.expires_in);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0)
    return { refused: "the token answer has no valid expires_in" };
  return {
    accessToken: fields.access_token,
    expiresIn,
    refreshToken:
      typeof fields.refresh_token === "string" && fields.refresh_token !== "" ? fields.refresh_token : null,
  };
}
