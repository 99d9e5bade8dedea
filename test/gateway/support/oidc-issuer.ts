// An OpenID Connect issuer on 127.0.0.1 for tests: it publishes a discovery document and its
// keys (JWKS), signs tokens with them, and rotates them on request, as Entra ID does.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload, type KeyLike } from "jose";

export type SigningAlgorithm = "RS256" | "ES256";

interface IssuerKey {
  kid: string;
  alg: SigningAlgorithm;
  privateKey: KeyLike;
  publicJwk: JWK;
}

export interface TestIssuer {
  /** The issuer's identifier, as tokens carry it in `iss` (its address). */
  url: string;
  /** The key new tokens are signed with. */
  currentKid(): string;
  /** Signs `claims` with the current key, or the one `kid` names. */
  sign(claims: JWTPayload, options?: { kid?: string }): Promise<string>;
  /** Signs with a key of no issuer's, under the header of the published key `kid` (a forged token). */
  forge(claims: JWTPayload, kid: string): Promise<string>;
  /** Adds a key and signs with it from now on; answers its kid. */
  rotate(alg?: SigningAlgorithm): Promise<string>;
  /** Stops publishing a key (tokens signed with it become unverifiable). */
  retire(kid: string): void;
  /** Answers discovery with a redirect to `location` (null: answers it). */
  redirectDiscovery(location: string | null): void;
  /** How many times the keys were read. */
  keyReads(): number;
  close(): Promise<void>;
}

let kidCount = 0;

async function newKey(alg: SigningAlgorithm): Promise<IssuerKey> {
  kidCount += 1;
  const kid = `test-key-${kidCount}`;
  const { privateKey, publicKey } = await generateKeyPair(alg);
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

function signWith(key: { privateKey: KeyLike; alg: SigningAlgorithm }, kid: string, claims: JWTPayload) {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid, typ: "JWT" }).sign(key.privateKey);
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const keys = new Map<string, IssuerKey>();
  let current = await newKey("RS256");
  keys.set(current.kid, current);
  let discoveryRedirect: string | null = null;
  let reads = 0;
  let url = "";

  const server: Server = createServer((request, response) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(body));
    };
    // The document at its address and at any query of it (where a test redirects to).
    if (request.url?.startsWith("/.well-known/openid-configuration") === true) {
      if (discoveryRedirect !== null && request.url === "/.well-known/openid-configuration") {
        return send(302, {}, { location: discoveryRedirect });
      }
      return send(200, {
        issuer: url,
        jwks_uri: `${url}/keys`,
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (request.url === "/keys") {
      reads += 1;
      return send(200, { keys: [...keys.values()].map((key) => key.publicJwk) });
    }
    return send(404, { error: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    currentKid: () => current.kid,
    sign: async (claims, options = {}) => {
      const key = keys.get(options.kid ?? current.kid);
      if (key === undefined) throw new Error(`The test issuer has no key ${options.kid ?? ""}.`);
      return signWith(key, key.kid, claims);
    },
    forge: async (claims, kid) => {
      const published = keys.get(kid);
      if (published === undefined) throw new Error(`The test issuer has no key ${kid}.`);
      const stranger = await generateKeyPair(published.alg);
      return signWith({ privateKey: stranger.privateKey, alg: published.alg }, kid, claims);
    },
    rotate: async (alg = "RS256") => {
      current = await newKey(alg);
      keys.set(current.kid, current);
      return current.kid;
    },
    retire: (kid) => {
      keys.delete(kid);
    },
    redirectDiscovery: (location) => {
      discoveryRedirect = location;
    },
    keyReads: () => reads,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
