// What the gateway keeps: members, the answers it bought, the audit of purchases and of answers
// served, and settings shared by every instance. One implementation runs the same SQL on
// PGlite (embedded, a directory) and on Postgres (several instances behind a load balancer).
import type { DataOperation, GatewayOperation } from "../gateway-operation";

/** A span of time: from its first instant to the first instant after it. */
export interface TimeRange {
  start: Date;
  end: Date;
}

export interface Member {
  /** Lower-case email address: the member's sign-in name. */
  email: string;
  admin: boolean;
  /** Data requests the member may cause per dataset per allowance period; null: no budget of their own. */
  budget: number | null;
  /** Refused at sign-in and on every request, whatever their token, until unblocked. */
  blocked: boolean;
}

export interface MemberStore {
  /** Adds a member or replaces the password, budget and role of an existing one. */
  save(email: string, password: string, options: { budget: number | null; admin: boolean }): Promise<Member>;
  /** False when there was no such member. */
  remove(email: string): Promise<boolean>;
  list(): Promise<Member[]>;
  find(email: string): Promise<Member | null>;
  /**
   * The id of the member's current credentials (null: no such member). It changes whenever the
   * password is replaced and when the member is removed and added again; tokens carry it.
   */
  credentials(email: string): Promise<string | null>;
  /** The member while their credentials are still `credentials` (see credentials()); null otherwise. */
  findWithCredentials(email: string, credentials: string): Promise<Member | null>;
  /**
   * The member when the password is theirs; null otherwise (unknown member, wrong password, or a
   * member who signs in through the organisation and has no password here).
   */
  verify(email: string, password: string): Promise<Member | null>;
  /**
   * The member, added on first use (organisation sign-in) when there is none: with no password,
   * so password sign-in never works for them, no budget of their own and no admin role.
   */
  ensure(email: string): Promise<Member>;
  /** Blocks or unblocks a member; false when there is no such member. */
  setBlocked(email: string, blocked: boolean): Promise<boolean>;
}

/** An API key for scripts: it signs in as the member `key:NAME` (see api-keys/api-key.ts). */
export interface ApiKey {
  name: string;
  /** Data requests the key may cause per dataset per allowance period; null: no budget of its own. */
  budget: number | null;
  createdAt: Date;
  /** When it was revoked; null while it works. */
  revokedAt: Date | null;
}

export interface ApiKeyStore {
  /**
   * Keeps a new key by the sha256 of its secret (the secret itself is never kept). A revoked
   * key's name may be given to a new key; a working key's may not (an error names it).
   */
  add(name: string, secretHash: string, options: { budget: number | null; at: Date }): Promise<ApiKey>;
  /** False when there is no working key of that name. */
  revoke(name: string, at: Date): Promise<boolean>;
  list(): Promise<ApiKey[]>;
  find(name: string): Promise<ApiKey | null>;
  /** The working key whose secret hashes to `secretHash` (compared in constant time); null otherwise. */
  verify(secretHash: string): Promise<ApiKey | null>;
}

/** Where an answer is kept: environment, product, operation, code and the options as requested. */
export interface AnswerKey {
  environment: "live";
  product: string;
  operation: DataOperation;
  code: string;
  /** The c and u option texts as the member sent them ("" when absent). */
  currency: string;
  unit: string;
}

export interface CachedAnswer {
  key: string;
  /**
   * The upstream's Series Values record for the code as JSON text: answers are made of these
   * texts as they are, never parsed and written again (the serving path's largest cost).
   */
  recordJson: string;
  /** The catalog's view of the series when it was bought (see catalog/catalog-entry.ts). */
  fingerprint: string;
  boughtAt: Date;
}

export interface AnswerCache {
  get(keys: readonly string[]): Promise<Map<string, CachedAnswer>>;
  put(answers: readonly CachedAnswer[]): Promise<void>;
}

/** One code charged by the upstream, and the member whose request caused it. */
export interface PurchasedCode {
  key: string;
  code: string;
  dataset: string;
  member: string;
}

export interface Purchase {
  at: Date;
  product: string;
  operation: GatewayOperation;
  /** The codes the upstream answered (each one data request charged). */
  codes: readonly PurchasedCode[];
}

export interface ServedAnswer {
  at: Date;
  member: string;
  product: string;
  operation: GatewayOperation;
  code: string;
  dataset: string;
  /** "cache": from the gateway's store; "purchase": bought for this request. */
  source: "cache" | "purchase";
}

export interface UsageRow {
  member: string;
  product: string;
  dataset: string;
  /** Data requests charged by the upstream for codes this member's requests caused. */
  purchased: number;
  /** Answers served to the member from the cache (no charge). */
  fromCache: number;
}

export interface AuditLog {
  recordPurchase(purchase: Purchase): Promise<void>;
  recordServed(answers: readonly ServedAnswer[]): Promise<void>;
  /** Data requests a member's requests caused for a dataset in a period (an allowance period). */
  purchasedBy(member: string, product: string, dataset: string, period: TimeRange): Promise<number>;
  /** Per member, product and dataset, for a period (an allowance period). */
  usage(period: TimeRange): Promise<UsageRow[]>;
}

/** A member's request asking to hold part of their budget while its purchases are in flight. */
export interface BudgetHoldRequest {
  member: string;
  product: string;
  /** The member's budget per dataset for an allowance period. */
  budget: number;
  /** Data requests the request may cause, per dataset, checked in this order. */
  needed: ReadonlyMap<string, number>;
  at: Date;
  /** The allowance period that holds `at`: its purchases count against the budget. */
  period: TimeRange;
  /** When the hold stops counting should it never be released (its instance crashed). */
  expiresAt: Date;
}

export type BudgetHoldOutcome =
  | { held: string }
  /** The first dataset that does not fit, and what the budget has left there. */
  | { over: { dataset: string; left: number; needed: number } };

/**
 * The budget a member's requests in flight hold, shared by every instance on the database.
 * Checking the audit alone would let concurrent requests (an add-in keeps many calls in flight,
 * and a load balancer spreads them) all see the same figure and together buy past the budget.
 */
export interface BudgetHolds {
  /**
   * One member's holds are checked one at a time across instances: the period's purchases plus
   * the holds neither released nor expired, per dataset; when all fit, `needed` is held.
   */
  hold(request: BudgetHoldRequest): Promise<BudgetHoldOutcome>;
  /** Ends a hold once its purchases are in the audit (nothing when it is gone already). */
  release(id: string): Promise<void>;
  /**
   * Takes `requests` of a dataset off a hold: that many of its request's codes are in the audit
   * now, or cost nothing (nothing when the hold is gone already).
   */
  settle(id: string, dataset: string, requests: number): Promise<void>;
  /** What a member's holds not yet released nor expired at `at` hold, per dataset of a product. */
  heldBy(member: string, product: string, at: Date): Promise<Map<string, number>>;
}

export interface KeyLocks {
  /**
   * Runs `work` while this instance holds every key's lock, so two instances never buy the
   * same key at once (Postgres: advisory locks; PGlite: one instance, the work runs as is).
   */
  withLocks<T>(keys: readonly string[], work: () => Promise<T>): Promise<T>;
}

/** Sign-in attempts per key (address and name), counted in fixed windows. */
export interface AttemptCounts {
  /**
   * Counts one attempt under `key` at `at`: a window of `windowMs` starts with the key's first
   * attempt after the last one ended. The attempts in the current window, this one included, and
   * when it ends.
   */
  count(key: string, windowMs: number, at: Date): Promise<{ attempts: number; windowEnds: Date }>;
  /**
   * Takes one attempt back off `key`'s count when its window still holds `at`; a count taken
   * back to nothing is gone, and the key's next attempt starts a window.
   */
  uncount(key: string, at: Date): Promise<void>;
}

/** A product's Series Info as the gateway last read it, saved for a restart while the service is down. */
export interface CatalogCopy {
  body: string;
  readAt: Date;
}

export interface CatalogCopies {
  get(product: string): Promise<CatalogCopy | null>;
  /** When the saved copy was read, without its body (a catalog is megabytes); null: none saved. */
  readAt(product: string): Promise<Date | null>;
  /** Saves the copy unless a later one is saved; true when it was saved. */
  put(product: string, copy: CatalogCopy): Promise<boolean>;
}

/**
 * The monthly release's business day that budgets and the usage report count by, kept in the
 * database so that every instance on it and the `usage` command agree on it.
 */
export interface ReleaseDaySetting {
  /** The day last set; null when none was. Throws when what is kept is not a day. */
  get(): Promise<number | null>;
  /** Keeps `day`, in one transaction under a lock; what was kept before (as kept), or null. */
  replace(day: number): Promise<string | null>;
}

export interface GatewayStore {
  members: MemberStore;
  keys: ApiKeyStore;
  answers: AnswerCache;
  audit: AuditLog;
  holds: BudgetHolds;
  locks: KeyLocks;
  attempts: AttemptCounts;
  catalogs: CatalogCopies;
  releaseDay: ReleaseDaySetting;
  /** The secret member tokens are signed with: made once, shared by every instance. */
  tokenSecret(): Promise<Uint8Array>;
  close(): Promise<void>;
}
