// Organisation sign-in: bearer tokens from an OpenID Connect issuer (Microsoft Entra ID, say),
// checked against the issuer's published keys. The keys come from the discovery document's
// jwks_uri and are cached; a token signed with a key not yet seen makes the cache read the keys
// again, so the issuer can rotate them without a restart of the gateway.
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { inDomain, isEmail, normaliseEmail } from "../members/member-email";
import { fetchWithinOrigin, type FetchFunction } from "./fetch-within-origin";

export interface OidcSettings {
  /** The issuer's identifier, as its tokens carry it in `iss` (https://login.microsoftonline.com/<tenant>/v2.0). */
  issuer: string;
  /** The `aud` the tokens must carry: the gateway's application (client) id. */
  audience: string;
  /** When any are given, the token's `tid` must be one of them. */
  tenants: readonly string[];
}

export interface OidcVerifierSettings extends OidcSettings {
  /** Members' addresses must be in this domain; null: any. */
  domain: string | null;
  now: () => number;
  /** Reads the discovery document (redirects are followed only within its origin). */
  fetch: FetchFunction;
  /** The least time between two reads of the keys (jose's default, 30 s, when absent). */
  keysCooldownMs?: number;
  /** How long reading the discovery document may take (fetch-within-origin.ts's default when absent). */
  discoveryTimeoutMs?: number;
}

export type OidcOutcome = { email: string } | { status: 401 | 503; message: string };

/** How far a token's exp, nbf and iat may be off the gateway's clock. */
export const CLOCK_TOLERANCE_S = 60;
const ALGORITHMS = ["RS256", "ES256"];
const EMAIL_CLAIMS = ["preferred_username", "email", "upn"] as const;

export interface OidcVerifier {
  verify(token: string): Promise<OidcOutcome>;
}

const refused = (reason: string): OidcOutcome => ({
  status: 401,
  message: `Invalid access token: ${reason}. Sign in again.`,
});

const unavailable = (reason: string): OidcOutcome => ({
  status: 503,
  message: `Organisation sign-in is unavailable: ${reason}. Try again later.`,
});

function refusalOf(error: unknown): OidcOutcome {
  if (error instanceof errors.JWTExpired) return refused("expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return refused("wrong audience");
    if (error.claim === "iss") return refused("wrong issuer");
    if (error.claim === "nbf") return refused("not yet valid");
    if (error.claim === "iat") return refused("issued in the future");
    return refused(`the claim ${error.claim} is missing or wrong`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return refused("bad signature");
  if (error instanceof errors.JWKSNoMatchingKey) {
    return refused("bad signature (signed with a key the issuer does not publish)");
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return refused("bad signature (algorithm not allowed)");
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return refused("malformed");
  if (error instanceof errors.JOSENotSupported || error instanceof errors.JWKSMultipleMatchingKeys) {
    return refused("bad signature (unsupported key)");
  }
  // A failed read of the keys (timeout, refused connection, not 200): the issuer's, not the token's.
  return unavailable("the issuer's keys could not be read");
}

function emailOf(payload: JWTPayload): string | null {
  for (const claim of EMAIL_CLAIMS) {
    const value = payload[claim];
    if (typeof value === "string" && value.trim() !== "") return normaliseEmail(value);
  }
  return null;
}

/** A discovery document that was read and is not to be trusted, with why (for the refusal). */
class DiscoveryRefused extends Error {
  constructor(readonly reason: string) {
    super(`discovery refused: ${reason}`);
  }
}

export function oidcVerifier(settings: OidcVerifierSettings): OidcVerifier {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const discover = async (): Promise<ReturnType<typeof createRemoteJWKSet>> => {
    const address = `${settings.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
    const response = await fetchWithinOrigin(settings.fetch, address, settings.discoveryTimeoutMs);
    if (response.status !== 200) throw new Error(`discovery answered ${response.status}`);
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // The document must be the configured issuer's own (OpenID Connect Discovery requires its
    // `issuer` to be the identifier it was read under): one that names another issuer, a
    // misconfigured address or a look-alike, would have the gateway trust that issuer's keys.
    if (typeof document.issuer !== "string") throw new DiscoveryRefused("names no issuer");
    if (document.issuer !== settings.issuer) throw new DiscoveryRefused("names another issuer");
    if (typeof document.jwks_uri !== "string") throw new Error("discovery has no jwks_uri");
    const jwksUri = new URL(document.jwks_uri);
    if (jwksUri.protocol !== "https:" && jwksUri.protocol !== "http:")
      throw new Error("jwks_uri is not http(s)");
    // Keys read in clear could be anyone's: an issuer on https names keys on https.
    if (new URL(address).protocol === "https:" && jwksUri.protocol !== "https:")
      throw new Error("jwks_uri is not https");
    return createRemoteJWKSet(jwksUri, {
      ...(settings.keysCooldownMs === undefined ? {} : { cooldownDuration: settings.keysCooldownMs }),
    });
  };
  const keySet = (): Promise<ReturnType<typeof createRemoteJWKSet>> => {
    // Read once; a failed read is tried again at the next token.
    keys ??= discover().catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  return {
    async verify(token) {
      let jwks;
      try {
        jwks = await keySet();
      } catch (error) {
        if (error instanceof DiscoveryRefused)
          return unavailable(`the issuer's discovery document ${error.reason}`);
        return unavailable("the issuer's discovery document could not be read");
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, {
          issuer: settings.issuer,
          audience: settings.audience,
          algorithms: ALGORITHMS,
          clockTolerance: CLOCK_TOLERANCE_S,
          currentDate: new Date(settings.now()),
          requiredClaims: ["exp"],
        }));
      } catch (error) {
        return refusalOf(error);
      }
      if (settings.tenants.length > 0) {
        const tenant = payload.tid;
        if (typeof tenant !== "string" || !settings.tenants.includes(tenant)) {
          return refused(`tenant not allowed (${typeof tenant === "string" ? tenant : "no tid claim"})`);
        }
      }
      // An issuer that says it has not verified the address vouches for no member by it.
      if (payload.email_verified === false || payload.email_verified === "false") {
        return refused("the issuer has not verified the email address");
      }
      const email = emailOf(payload);
      if (email === null || !isEmail(email)) return refused("no email address in the token");
      if (!inDomain(email, settings.domain)) {
        return refused(`domain not allowed (${email} is not in ${settings.domain ?? ""})`);
      }
      return { email };
    },
  };
}
