// How long an access token from the service is believed to live (docs/service.md §5); when it
// is renewed is token-renewal.ts's. The engine (token-request.ts) and the team gateway
// (src/gateway/upstream/upstream-client.ts) both hold such a token and both follow this rule.
// This module imports nothing: the gateway's server is built on its own (tsconfig.server.json),
// and an import from here would bring engine modules and their packages into it.

/**
 * The longest a token is believed to live. A service's exp is a claim, not verified: one
 * years or millennia ahead (10^13 seconds is past what a Date can hold) would keep a dead
 * token for ever and break every date made from it, so beyond this it is not believed.
 */
export const MAX_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Expiry, on our clock, of a token whose claims are `claims` (undefined: not a readable JWT),
 * received at `now`. When exp is missing or unreadable: now + `defaultLifetimeMs`. When exp is
 * already past by our clock (a clock running ahead of the service's), the token's own lifetime
 * (exp - iat, else `defaultLifetimeMs`) from now: believing exp would renew it at every use. An
 * expiry (or lifetime) beyond MAX_TOKEN_LIFETIME_MS is not believed: now + `defaultLifetimeMs`.
 */
export function tokenExpiry(
  claims: Record<string, unknown> | undefined,
  now: number,
  defaultLifetimeMs: number,
): number {
  const expiresAt = claimedExpiry(claims, now, defaultLifetimeMs);
  return expiresAt - now > MAX_TOKEN_LIFETIME_MS ? now + defaultLifetimeMs : expiresAt;
}

function claimedExpiry(
  claims: Record<string, unknown> | undefined,
  now: number,
  defaultLifetimeMs: number,
): number {
  if (claims === undefined) return now + defaultLifetimeMs;
  if (typeof claims.exp !== "number" || !Number.isFinite(claims.exp)) return now + defaultLifetimeMs;
  const expiresAt = claims.exp * 1000;
  if (expiresAt > now) return expiresAt;
  const lifetime =
    typeof claims.iat === "number" && claims.exp > claims.iat
      ? (claims.exp - claims.iat) * 1000
      : defaultLifetimeMs;
  return now + lifetime;
}
