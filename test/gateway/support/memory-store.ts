// A GatewayStore held in memory, for tests of the gateway's serving logic that need no database
// (the SQL store has tests of its own). Passwords and key hashes are compared as given: a test
// double only.
import type {
  ApiKey,
  AnswerCache,
  AuditLog,
  BudgetHolds,
  CachedAnswer,
  CatalogCopy,
  GatewayStore,
  Member,
  Purchase,
  ServedAnswer,
  UsageRow,
  TimeRange,
} from "../../../src/gateway/store/gateway-store";

export interface MemoryStore extends GatewayStore {
  purchases: Purchase[];
  served: ServedAnswer[];
  kept: Map<string, CachedAnswer>;
}

const within = (at: Date, { start, end }: TimeRange): boolean => at >= start && at < end;

export function memoryStore(): MemoryStore {
  // A member who signs in through the organisation has no password (null): none verifies.
  const members = new Map<string, Member & { password: string | null; credentials: string }>();
  let issued = 0;
  const newCredentials = (): string => `credentials-${(issued += 1)}`;
  const keys = new Map<string, ApiKey & { secretHash: string }>();
  const kept = new Map<string, CachedAnswer>();
  const purchases: Purchase[] = [];
  const served: ServedAnswer[] = [];
  const secret = new TextEncoder().encode("a test secret of thirty-two bytes");
  const strip = ({ email, admin, budget, blocked }: Member): Member => ({ email, admin, budget, blocked });
  const stripKey = ({ name, budget, createdAt, revokedAt }: ApiKey): ApiKey => ({
    name,
    budget,
    createdAt,
    revokedAt,
  });

  const boughtBy = (member: string, product: string, dataset: string, period: TimeRange): number =>
    purchases
      .filter((purchase) => purchase.product === product && within(purchase.at, period))
      .flatMap((purchase) => purchase.codes)
      .filter((code) => code.member === member && code.dataset === dataset).length;
  const answers: AnswerCache = {
    get: async (keys) =>
      new Map(keys.flatMap((key) => (kept.has(key) ? [[key, kept.get(key) as CachedAnswer]] : []))),
    put: async (list) => {
      for (const answer of list) kept.set(answer.key, answer);
    },
  };
  const audit: AuditLog = {
    recordPurchase: async (purchase) => void purchases.push(purchase),
    recordServed: async (list) => void served.push(...list),
    purchasedBy: async (member, product, dataset, period) => boughtBy(member, product, dataset, period),
    usage: async (period) => {
      const rows = new Map<string, UsageRow>();
      const row = (member: string, product: string, dataset: string): UsageRow => {
        const id = `${member}|${product}|${dataset}`;
        const existing = rows.get(id) ?? { member, product, dataset, purchased: 0, fromCache: 0 };
        rows.set(id, existing);
        return existing;
      };
      for (const purchase of purchases) {
        if (!within(purchase.at, period)) continue;
        for (const code of purchase.codes) row(code.member, purchase.product, code.dataset).purchased += 1;
      }
      for (const answer of served) {
        if (answer.source === "cache" && within(answer.at, period)) {
          row(answer.member, answer.product, answer.dataset).fromCache += 1;
        }
      }
      return [...rows.values()];
    },
  };
  // One process: a check runs to its end before another starts (no await inside), as the SQL
  // store's lock makes it across instances.
  const held: Array<{
    id: string;
    member: string;
    product: string;
    dataset: string;
    requests: number;
    expiresAt: Date;
  }> = [];
  const attempts = new Map<string, { attempts: number; windowEnds: Date }>();
  const catalogs = new Map<string, CatalogCopy>();
  let holdsMade = 0;
  let releaseDay: number | null = null;
  const holds: BudgetHolds = {
    hold: async ({ member, product, budget, needed, at, period, expiresAt }) => {
      for (const [index, hold] of [...held.entries()].reverse())
        if (hold.expiresAt <= at) held.splice(index, 1);
      for (const [dataset, count] of needed) {
        const already =
          boughtBy(member, product, dataset, period) +
          held
            .filter((hold) => hold.member === member && hold.product === product && hold.dataset === dataset)
            .reduce((sum, hold) => sum + hold.requests, 0);
        if (already + count > budget)
          return { over: { dataset, left: Math.max(0, budget - already), needed: count } };
      }
      const id = `hold-${(holdsMade += 1)}`;
      for (const [dataset, requests] of needed)
        held.push({ id, member, product, dataset, requests, expiresAt });
      return { held: id };
    },
    release: async (id) => {
      for (const [index, hold] of [...held.entries()].reverse()) if (hold.id === id) held.splice(index, 1);
    },
    settle: async (id, dataset, requests) => {
      for (const hold of held)
        if (hold.id === id && hold.dataset === dataset) hold.requests = Math.max(0, hold.requests - requests);
    },
    heldBy: async (member, product, at) => {
      const byDataset = new Map<string, number>();
      for (const hold of held) {
        if (hold.member !== member || hold.product !== product || hold.expiresAt <= at) continue;
        byDataset.set(hold.dataset, (byDataset.get(hold.dataset) ?? 0) + hold.requests);
      }
      return byDataset;
    },
  };
  return {
    purchases,
    served,
    kept,
    holds,
    members: {
      save: async (email, password, options) => {
        const normalised = email.trim().toLowerCase();
        const blocked = members.get(normalised)?.blocked ?? false;
        const member = { email: normalised, password, ...options, blocked, credentials: newCredentials() };
        members.set(member.email, member);
        return strip(member);
      },
      remove: async (email) => members.delete(email),
      list: async () => [...members.values()].map(strip),
      find: async (email) => {
        const member = members.get(email);
        return member === undefined ? null : strip(member);
      },
      credentials: async (email) => members.get(email)?.credentials ?? null,
      findWithCredentials: async (email, credentials) => {
        const member = members.get(email);
        return member !== undefined && member.credentials === credentials ? strip(member) : null;
      },
      verify: async (email, password) => {
        const member = members.get(email);
        return member !== undefined && member.password !== null && member.password === password
          ? strip(member)
          : null;
      },
      ensure: async (email) => {
        const existing = members.get(email);
        if (existing !== undefined) return strip(existing);
        const member = {
          email,
          password: null,
          admin: false,
          budget: null,
          blocked: false,
          credentials: newCredentials(),
        };
        members.set(email, member);
        return strip(member);
      },
      setBlocked: async (email, blocked) => {
        const member = members.get(email);
        if (member === undefined) return false;
        member.blocked = blocked;
        return true;
      },
    },
    keys: {
      add: async (name, secretHash, { budget, at }) => {
        if (keys.get(name)?.revokedAt === null)
          throw new Error(`A working key named ${name} exists: revoke it first.`);
        const key = { name, secretHash, budget, createdAt: at, revokedAt: null };
        keys.set(name, key);
        return stripKey(key);
      },
      revoke: async (name, at) => {
        const key = keys.get(name);
        if (key === undefined || key.revokedAt !== null) return false;
        key.revokedAt = at;
        return true;
      },
      list: async () => [...keys.values()].sort((a, b) => a.name.localeCompare(b.name)).map(stripKey),
      find: async (name) => {
        const key = keys.get(name);
        return key === undefined ? null : stripKey(key);
      },
      verify: async (secretHash) => {
        const key = [...keys.values()].find(
          (each) => each.revokedAt === null && each.secretHash === secretHash,
        );
        return key === undefined ? null : stripKey(key);
      },
    },
    answers,
    audit,
    locks: { withLocks: async (_keys, work) => work() },
    attempts: {
      count: async (key, windowMs, at) => {
        const current = attempts.get(key);
        const counted =
          current === undefined || current.windowEnds <= at
            ? { attempts: 1, windowEnds: new Date(at.getTime() + windowMs) }
            : { attempts: current.attempts + 1, windowEnds: current.windowEnds };
        attempts.set(key, counted);
        return counted;
      },
      uncount: async (key, at) => {
        const current = attempts.get(key);
        if (current === undefined || current.windowEnds <= at) return;
        if (current.attempts <= 1) attempts.delete(key);
        else attempts.set(key, { ...current, attempts: current.attempts - 1 });
      },
    },
    catalogs: {
      get: async (product) => catalogs.get(product) ?? null,
      readAt: async (product) => catalogs.get(product)?.readAt ?? null,
      put: async (product, copy) => {
        const saved = catalogs.get(product);
        if (saved !== undefined && saved.readAt > copy.readAt) return false;
        catalogs.set(product, copy);
        return true;
      },
    },
    releaseDay: {
      get: async () => releaseDay,
      replace: async (day) => {
        const before = releaseDay === null ? null : String(releaseDay);
        releaseDay = day;
        return before;
      },
    },
    tokenSecret: async () => secret,
    close: async () => undefined,
  };
}
