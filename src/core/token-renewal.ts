// How long before its expiry an access token is renewed. The engine (auth.ts) and the team
// gateway (src/gateway/upstream/upstream-client.ts) both follow it. A module of its own, with
// no imports: auth.ts is in the functions runtime Excel loads at start, which should not carry
// the expiry rule (token-expiry.ts) that only the token request, a chunk loaded on first use,
// needs; and the gateway's server is built on its own.

/**
 * How long before its expiry a token that lives `lifetimeMs` on our clock is renewed:
 * `renewBeforeExpiryMs`, or a quarter of the lifetime for a short-lived token (tests, odd
 * services, an exp close ahead by a clock running ahead), so it is used a while before renewal
 * rather than renewed at every use.
 */
export function renewMarginFor(lifetimeMs: number, renewBeforeExpiryMs: number): number {
  return Math.min(renewBeforeExpiryMs, Math.max(0, lifetimeMs) / 4);
}
