// W7's workbooks: a team whose members share half of their request keys and own the other
// half. The catalog is dealt into disjoint slices (one shared, one per member) so that own keys
// never meet another member's; the shared cells are the same for every member (the team's
// common sheet), each member's own cells come from their slice. The bound is need-based
// (bench/needs.ts) on the union of every member's cells: what one analyst holding all of them
// would have to buy.
import { coldBound, productsOf, type Bound, type ServiceShape } from "./bounds";
import { PRODUCTS, type CatalogSeries } from "./catalog";
import { SeededRandom } from "./prng";
import { distinctRequestKeys, type BenchRequestKey } from "./request-keys";
import { generateWorkbook, type BenchFormula } from "./workloads";

export interface MemberWorkbook {
  email: string;
  formulas: BenchFormula[];
}

export interface TeamWorkbooks {
  members: MemberWorkbook[];
  /** The cells every member holds. */
  shared: BenchFormula[];
}

/** Members' sign-in names: member01@example.com, member02@example.com, ... */
export function memberEmail(index: number): string {
  return `member${String(index + 1).padStart(2, "0")}@example.com`;
}

/** Each product's series shuffled and dealt in turn into `count` disjoint slices. */
export function dealCatalog(
  catalog: readonly CatalogSeries[],
  count: number,
  seed: number,
): CatalogSeries[][] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`Cannot deal a catalog into ${count} slices`);
  const random = new SeededRandom(seed);
  const slices: CatalogSeries[][] = Array.from({ length: count }, () => []);
  for (const product of PRODUCTS) {
    const series = random.shuffled(catalog.filter((entry) => entry.product === product));
    series.forEach((entry, index) => slices[index % count]?.push(entry));
  }
  return slices;
}

/**
 * `members` workbooks of `formulasPerMember` cells: half the cells (rounded up) shared by all,
 * the rest the member's own, in a seeded order of the member's own.
 */
export function generateTeamWorkbooks(
  catalog: readonly CatalogSeries[],
  members: number,
  formulasPerMember: number,
  seed: number,
): TeamWorkbooks {
  if (!Number.isInteger(members) || members < 1)
    throw new Error(`A team needs at least one member, got ${members}`);
  if (!Number.isInteger(formulasPerMember) || formulasPerMember < 2) {
    throw new Error(
      `A member's workbook needs at least 2 formulas (shared and own), got ${formulasPerMember}`,
    );
  }
  const [sharedSlice, ...ownSlices] = dealCatalog(catalog, members + 1, seed);
  const sharedCount = Math.ceil(formulasPerMember / 2);
  const shared = generateWorkbook(sharedSlice ?? [], sharedCount, seed).formulas;
  const team = ownSlices.map((slice, index) => {
    const own = generateWorkbook(slice, formulasPerMember - sharedCount, seed + 1 + index).formulas;
    const order = new SeededRandom(seed + 101 + index);
    return { email: memberEmail(index), formulas: order.shuffled([...shared, ...own]) };
  });
  return { members: team, shared };
}

export interface TeamKeys {
  /** Distinct keys of all the members' cells together (reads widened across members). */
  union: BenchRequestKey[];
  /** Keys every member's cells ask for. */
  sharedByAll: number;
  /** Keys a single member asks for, averaged over the members. */
  ownPerMember: number;
}

export function teamKeys(
  members: readonly MemberWorkbook[],
  byCode: ReadonlyMap<string, CatalogSeries>,
): TeamKeys {
  const union = distinctRequestKeys(
    members.flatMap((member) => member.formulas),
    byCode,
  );
  const holders = new Map<string, number>();
  const own = new Map<string, number>();
  for (const member of members) {
    for (const key of distinctRequestKeys(member.formulas, byCode)) {
      holders.set(key.key, (holders.get(key.key) ?? 0) + 1);
    }
  }
  for (const member of members) {
    own.set(
      member.email,
      distinctRequestKeys(member.formulas, byCode).filter((key) => holders.get(key.key) === 1).length,
    );
  }
  const ownTotal = [...own.values()].reduce((sum, count) => sum + count, 0);
  return {
    union,
    sharedByAll: [...holders.values()].filter((count) => count === members.length).length,
    ownPerMember: members.length === 0 ? 0 : ownTotal / members.length,
  };
}

/**
 * What the service must answer for the whole team, cold: the need-based bound of the union
 * of the members' cells (a key's reads widened across members), packed 40 codes a call per
 * group, with the gateway's one sign-in and one Series Info read per product the cells name.
 */
export function teamBound(
  members: readonly MemberWorkbook[],
  byCode: ReadonlyMap<string, CatalogSeries>,
  shape: ServiceShape,
): Bound {
  const formulas = members.flatMap((member) => member.formulas);
  const catalogs = productsOf(
    formulas.map((formula) => formula.code),
    byCode,
  );
  return coldBound(distinctRequestKeys(formulas, byCode), { signIns: 1, catalogs }, shape);
}
