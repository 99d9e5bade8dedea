// When the engine and the team gateway renew a token: 5 minutes before it ends, or at three
// quarters of a shorter life.
import { renewMarginFor } from "../../src/core/token-renewal";

const TWO_HOURS = 2 * 60 * 60_000;

test.each<[string, number, number]>([
  ["a 2 h token: the full margin", TWO_HOURS, 5 * 60_000],
  ["a 20 min token: the full margin", 20 * 60_000, 5 * 60_000],
  ["a 2 min token: a quarter of it", 2 * 60_000, 30_000],
  ["no life left: none", 0, 0],
  ["a negative life: none", -60_000, 0],
])("renewMarginFor: %s", (_case, lifetimeMs, expected) => {
  expect(renewMarginFor(lifetimeMs, 5 * 60_000)).toBe(expected);
});
