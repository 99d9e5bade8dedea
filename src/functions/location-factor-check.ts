// PCD.RELOCATE's check that its two location factors share one base (docs/formulas.md,
// PCD.RELOCATE): the ratio of factors on different bases means nothing, so such a pair is
// refused naming both bases and, when the catalog has them, the two locations' factors on
// a common base.
import type { Engine } from "../core/engine-api";
import { locationFactorBase, sameBase, type LocationFactorBase } from "../core/location-factor-base";
import type { SeriesInfo } from "../core/model";
import { argumentError, shortened } from "./arguments/argument-error";

/**
 * A ratio of two factors means something only when both are relative to one base: a
 * factor whose base its texts do not say is refused too, since it cannot be checked.
 */
export async function checkSameBase(engine: Engine, from: SeriesInfo, to: SeriesInfo): Promise<void> {
  const fromBase = locationFactorBase(from);
  const toBase = locationFactorBase(to);
  for (const [argument, info, base] of [
    ["from_code", from, fromBase],
    ["to_code", to, toBase],
  ] as const) {
    if (base !== null) continue;
    throw argumentError(
      argument,
      `The ${argument} ${info.code} ("${shortened(info.assessment)}") does not say which location it is relative to: PCD.RELOCATE needs two factors it can tell are on one base.`,
    );
  }
  if (fromBase === null || toBase === null || sameBase(fromBase.base, toBase.base)) return;
  const cause = `The from_code ${from.code} is relative to ${shortened(fromBase.base)}, the to_code ${to.code} to ${shortened(toBase.base)}: their ratio means nothing.`;
  if (sameBase(fromBase.location, toBase.location)) {
    throw argumentError(
      "to_code",
      `${cause} Both are factors of ${shortened(fromBase.location)}: an amount stays where it is, so give one factor twice, e.g. ${from.code}.`,
    );
  }
  const pair = commonBasePair(await engine.catalog(from.product), fromBase, toBase);
  const places = `${shortened(fromBase.location)} and ${shortened(toBase.location)}`;
  const advice = pair
    ? ` Factors of ${places} on one base: ${pair.from} and ${pair.to} (vs ${shortened(pair.base)}).`
    : ` The catalog has no factors of ${places} on one base.`;
  throw argumentError("to_code", `${cause}${advice}`);
}

/** Factor series of both locations on one base: the from factor's base first, then the to factor's, then any. */
function commonBasePair(
  catalog: readonly SeriesInfo[],
  from: LocationFactorBase,
  to: LocationFactorBase,
): { from: string; to: string; base: string } | null {
  const byBase = new Map<string, { base: string; from?: string; to?: string }>();
  for (const info of catalog) {
    if (info.dataType !== "location_factor") continue;
    const factor = locationFactorBase(info);
    if (factor === null) continue;
    const key = factor.base.toLowerCase();
    const entry = byBase.get(key) ?? { base: factor.base };
    if (entry.from === undefined && sameBase(factor.location, from.location)) entry.from = info.code;
    if (entry.to === undefined && sameBase(factor.location, to.location)) entry.to = info.code;
    byBase.set(key, entry);
  }
  const preferred = [from.base.toLowerCase(), to.base.toLowerCase()];
  const entries = [...byBase.entries()].sort(([a], [b]) => rank(preferred, a) - rank(preferred, b));
  for (const [, entry] of entries) {
    if (entry.from !== undefined && entry.to !== undefined) {
      return { from: entry.from, to: entry.to, base: entry.base };
    }
  }
  return null;
}

function rank(preferred: readonly string[], base: string): number {
  const index = preferred.indexOf(base);
  return index === -1 ? preferred.length : index;
}
