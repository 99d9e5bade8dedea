// The rule both the engine and the team gateway follow for a token's life: the service's exp
// believed within 24 h, and an exp already past taken as the token's own lifetime from now.
import { MAX_TOKEN_LIFETIME_MS, tokenExpiry } from "../../src/core/token-expiry";

const NOW = Date.parse("2026-11-15T12:00:00Z");
const NOW_S = NOW / 1000;
const TWO_HOURS = 2 * 60 * 60_000;

test.each<[string, Record<string, unknown> | undefined, number]>([
  ["the exp claimed", { iat: NOW_S, exp: NOW_S + 3600 }, NOW + 3_600_000],
  ["now + the default without claims", undefined, NOW + TWO_HOURS],
  ["now + the default without exp", { iat: NOW_S }, NOW + TWO_HOURS],
  ["now + the default for a non-numeric exp", { exp: "later" }, NOW + TWO_HOURS],
  ["now + the default for an infinite exp", { exp: Infinity }, NOW + TWO_HOURS],
  [
    "exp past (our clock ahead): exp - iat from now",
    { iat: NOW_S - 7300, exp: NOW_S - 100 },
    NOW + 7_200_000,
  ],
  ["exp exactly now counts as past", { iat: NOW_S - 600, exp: NOW_S }, NOW + 600_000],
  ["exp past without iat: now + the default", { exp: NOW_S - 100 }, NOW + TWO_HOURS],
  ["exp past with iat after it: now + the default", { iat: NOW_S, exp: NOW_S - 100 }, NOW + TWO_HOURS],
  ["exactly 24 h ahead is believed", { exp: NOW_S + 86_400 }, NOW + MAX_TOKEN_LIFETIME_MS],
  ["25 h ahead is not: now + the default", { exp: NOW_S + 90_000 }, NOW + TWO_HOURS],
  ["exp 1e308: now + the default", { exp: 1e308 }, NOW + TWO_HOURS],
  ["exp past with a lifetime of years: now + the default", { iat: -1e12, exp: NOW_S - 100 }, NOW + TWO_HOURS],
])("tokenExpiry: %s", (_case, claims, expected) => {
  expect(tokenExpiry(claims, NOW, TWO_HOURS)).toBe(expected);
});
