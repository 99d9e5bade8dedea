// A local OpenID Connect provider for the browser test of organisation sign-in: discovery,
// keys, an /authorize that signs the user in at once and redirects back with a code, and a
// /token that redeems the code only with the PKCE verifier of its challenge (S256) and the
// same client and redirect address, and renews with its refresh tokens. Tokens are signed
// with jose (RS256) and carry what the gateway checks: iss, aud, tid, preferred_username.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export interface ProviderOptions {
  clientId: string;
  audience: string;
  tenant: string;
  /** Who signs in at /authorize. */
  user: string;
  /** The clock the tokens' iat and exp follow (the gateway's). */
  now: () => number;
}

export interface TestProvider {
  url: string;
  /** What the provider saw, in order ("authorize", "token:authorization_code", a refusal's reason…). */
  events: string[];
  close(): Promise<void>;
}

interface Grant {
  challenge: string;
  redirectUri: string;
  clientId: string;
}

const KID = "e2e-key-1";

export async function startTestProvider(options: ProviderOptions): Promise<TestProvider> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: "RS256", use: "sig" };
  const codes = new Map<string, Grant>();
  const refreshTokens = new Set<string>();
  const events: string[] = [];
  let url = "";

  const send = (response: ServerResponse, status: number, body: unknown): void => {
    // The dialog page reads discovery and redeems codes from the add-in's origin.
    response.writeHead(status, { "content-type": "application/json", "access-control-allow-origin": "*" });
    response.end(JSON.stringify(body));
  };
  const refuse = (response: ServerResponse, reason: string): void => {
    events.push(`refused: ${reason}`);
    send(response, 400, { error: "invalid_grant", error_description: reason });
  };
  const tokens = async (response: ServerResponse): Promise<void> => {
    const now = Math.floor(options.now() / 1000);
    const accessToken = await new SignJWT({
      iss: url,
      aud: options.audience,
      tid: options.tenant,
      preferred_username: options.user,
      iat: now,
      exp: now + 3600,
    })
      .setProtectedHeader({ alg: "RS256", kid: KID, typ: "JWT" })
      .sign(privateKey);
    const refreshToken = randomBytes(24).toString("base64url");
    refreshTokens.add(refreshToken);
    send(response, 200, {
      token_type: "Bearer",
      access_token: accessToken,
      expires_in: 3600,
      refresh_token: refreshToken,
    });
  };
  const readForm = async (request: IncomingMessage): Promise<URLSearchParams> => {
    let body = "";
    for await (const chunk of request) body += String(chunk);
    return new URLSearchParams(body);
  };

  const server = createServer((request, response) => {
    const address = new URL(request.url ?? "/", url);
    if (address.pathname === "/.well-known/openid-configuration") {
      return send(response, 200, {
        issuer: url,
        authorization_endpoint: `${url}/authorize`,
        token_endpoint: `${url}/token`,
        jwks_uri: `${url}/keys`,
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (address.pathname === "/keys") return send(response, 200, { keys: [jwk] });
    if (address.pathname === "/authorize" && request.method === "GET") {
      const query = address.searchParams;
      const redirectUri = query.get("redirect_uri") ?? "";
      const challenge = query.get("code_challenge") ?? "";
      if (
        query.get("client_id") !== options.clientId ||
        query.get("code_challenge_method") !== "S256" ||
        challenge === ""
      ) {
        return refuse(response, "authorize without this client or an S256 challenge");
      }
      events.push("authorize");
      const code = randomBytes(16).toString("base64url");
      codes.set(code, { challenge, redirectUri, clientId: options.clientId });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", query.get("state") ?? "");
      response.writeHead(302, { location: back.toString() });
      return response.end();
    }
    if (address.pathname === "/token" && request.method === "POST") {
      void readForm(request).then(async (form) => {
        const grantType = form.get("grant_type") ?? "";
        events.push(`token:${grantType}`);
        if (grantType === "refresh_token") {
          const presented = form.get("refresh_token") ?? "";
          if (!refreshTokens.delete(presented)) return refuse(response, "unknown refresh token");
          return tokens(response);
        }
        const grant = codes.get(form.get("code") ?? "");
        if (grant === undefined) return refuse(response, "unknown code");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (challenge !== grant.challenge)
          return refuse(response, "the verifier does not match the challenge");
        if (form.get("redirect_uri") !== grant.redirectUri || form.get("client_id") !== grant.clientId) {
          return refuse(response, "another client or redirect address");
        }
        return tokens(response);
      });
      return;
    }
    send(response, 404, { error: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
