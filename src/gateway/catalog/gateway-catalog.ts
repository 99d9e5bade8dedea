// The gateway's own copy of each product's Series Info. Series Info costs no data request but
// counts against the service's daily and monthly quotas, so the gateway reads it at most once
// per interval for the whole team, and again as soon as the service comes back from downtime
// (a release ends that way) or an answer shows a series the copy does not know.
import type { ProductId } from "../../core/model";
import type { CatalogCopies } from "../store/gateway-store";
import type { Upstream, UpstreamAnswer } from "../upstream/upstream-client";
import { retryAfterNow } from "../upstream/upstream-refusal";
import { catalogEntry, type CatalogEntry } from "./catalog-entry";

const RETRY_AFTER_FAILURE_MS = 60_000;

export interface ProductCatalog {
  /** The upstream's answer as it came, served to members who ask for Series Info. */
  body: string;
  byCode: ReadonlyMap<string, CatalogEntry>;
  /** When the call that read it was sent to the service (the copy describes no earlier moment). */
  readAt: number;
}

/** The upstream did not give a catalog: members get its answer as it came. */
export class CatalogUnavailable extends Error {
  constructor(readonly answer: UpstreamAnswer) {
    super(`Series Info: the service answered ${answer.status}`);
  }
}

export interface GatewayCatalogSettings {
  upstream: Pick<Upstream, "get">;
  /** Each product's last copy, kept in the database for a gateway started while the service is down. */
  saved: CatalogCopies;
  now: () => number;
  /** How old a copy may be before the next member request reads it again. */
  maxAgeMs: number;
  productPath: (product: ProductId) => string;
}

export class GatewayCatalog {
  private readonly copies = new Map<ProductId, ProductCatalog>();
  private readonly reading = new Map<ProductId, Promise<ProductCatalog>>();
  private readonly stale = new Set<ProductId>();
  /** The body this gateway last saved per product (saved again only when a read differs). */
  private readonly savedBodies = new Map<ProductId, string>();
  /**
   * How many times markStale was called, per product and for every product: a read clears the
   * product's mark only when none that concerns it came while the read was out.
   */
  private readonly marks = new Map<ProductId, number>();
  private marksOfAll = 0;
  /** Per product, the latest member's catalog time already looked up in the database. */
  private readonly caughtUpTo = new Map<ProductId, number>();
  /** Per product, the saved time (as saved) of the copy last taken from the database. */
  private readonly takenSaved = new Map<ProductId, number>();
  /** When a read last failed, and how: the next read waits a minute (downtime lasts hours). */
  private readonly failedAt = new Map<ProductId, { at: number; error: unknown }>();

  constructor(private readonly settings: GatewayCatalogSettings) {}

  /**
   * The product's catalog, read again when it is too old or marked stale. `memberHolds`: the
   * read time of the catalog a member's data call says its engine holds (the time a gateway gave
   * it). A later one than this instance's copy was read by another instance on the database:
   * its saved copy is taken first, so what this one keeps is judged against that catalog.
   */
  async get(product: ProductId, memberHolds?: number): Promise<ProductCatalog> {
    if (memberHolds !== undefined) await this.catchUp(product, memberHolds);
    const copy = this.copies.get(product);
    const fresh =
      copy !== undefined &&
      !this.stale.has(product) &&
      this.settings.now() - copy.readAt < this.settings.maxAgeMs;
    if (fresh) return copy;
    const failed = this.failedAt.get(product);
    if (failed !== undefined && this.settings.now() - failed.at < RETRY_AFTER_FAILURE_MS) {
      if (copy !== undefined) return copy;
      // No copy at all: members get the last refusal until the minute is over, rather than each
      // request asking the service again (its Series Info calls count against its quotas).
      throw replayed(failed.error, this.settings.now() - failed.at);
    }
    let reading = this.reading.get(product);
    if (reading === undefined) {
      // Requests that come while the read (or the fallback after it) is under way share it.
      reading = this.readOrLastCopy(product, copy).finally(() => this.reading.delete(product));
      this.reading.set(product, reading);
    }
    return reading;
  }

  private async readOrLastCopy(
    product: ProductId,
    copy: ProductCatalog | undefined,
  ): Promise<ProductCatalog> {
    try {
      return await this.read(product);
    } catch (error) {
      // The service is down or refuses: the last copy still describes what the gateway holds,
      // also the one saved before this gateway started.
      const last = copy ?? (await this.savedCopy(product));
      // A read held back for downtime was not sent: the minute counts from the refusal that
      // holds it, so the catalog is read as soon as the service may be asked again.
      const heldSince = error instanceof CatalogUnavailable ? error.answer.heldSince : undefined;
      this.failedAt.set(product, { at: heldSince ?? this.settings.now(), error });
      if (last !== undefined) return last;
      throw error;
    }
  }

  /** The copy saved in the database, in memory from now on; none when it is missing or unreadable. */
  private async savedCopy(product: ProductId): Promise<ProductCatalog | undefined> {
    let saved;
    try {
      saved = await this.settings.saved.get(product);
    } catch {
      return undefined;
    }
    if (saved === null) return undefined;
    const byCode = entriesOf(product, saved.body);
    if (byCode === null) return undefined;
    // Read at its own time: once the service is back, the next request reads the catalog again.
    const copy = { body: saved.body, byCode, readAt: saved.readAt.getTime() };
    this.copies.set(product, this.copies.get(product) ?? copy);
    return this.copies.get(product);
  }

  /**
   * Takes the saved copy when a member holds a catalog read after this instance's copy and the
   * database has a later one. An instance saves each read that differs before it answers it, so
   * a copy no later than this one's is the catalog the member holds. A time ahead of this
   * gateway's clock is taken as now; each time is looked up once, and only while the copy is older.
   */
  private async catchUp(product: ProductId, memberHolds: number): Promise<void> {
    const held = Math.min(memberHolds, this.settings.now());
    const copy = this.copies.get(product);
    if (copy === undefined || copy.readAt >= held || (this.caughtUpTo.get(product) ?? -Infinity) >= held)
      return;
    // Its time first: the body (megabytes) is read only when the saved copy is the later one
    // (than this copy, and than a saved one taken before, whose time may have been ahead).
    const later = (at: number | undefined): boolean =>
      at !== undefined &&
      at > Math.max(this.copies.get(product)?.readAt ?? Infinity, this.takenSaved.get(product) ?? -Infinity);
    // A time looked up needs no lookup again; one whose lookup failed is tried at the next call.
    const lookedUp = (): void => {
      this.caughtUpTo.set(product, Math.max(held, this.caughtUpTo.get(product) ?? -Infinity));
    };
    let saved;
    try {
      if (!later((await this.settings.saved.readAt(product))?.getTime())) {
        lookedUp();
        return;
      }
      saved = await this.settings.saved.get(product);
    } catch {
      return;
    }
    lookedUp();
    const readAt = saved?.readAt.getTime();
    if (saved === null || readAt === undefined || !later(readAt)) return;
    const byCode = entriesOf(product, saved.body);
    if (byCode === null) return;
    // Another instance's clock may run ahead of this one's: its time is taken as now at most.
    this.copies.set(product, { body: saved.body, byCode, readAt: Math.min(readAt, this.settings.now()) });
    this.takenSaved.set(product, readAt);
    this.savedBodies.set(product, saved.body);
  }

  /** The next request reads the product's catalog again (after downtime, or an unknown series). */
  markStale(product?: ProductId): void {
    if (product === undefined) {
      this.marksOfAll += 1;
      for (const known of this.copies.keys()) this.stale.add(known);
    } else {
      this.marks.set(product, (this.marks.get(product) ?? 0) + 1);
      this.stale.add(product);
    }
  }

  /** The marks that concern the product so far (its own and those of every product). */
  private marksOf(product: ProductId): number {
    return (this.marks.get(product) ?? 0) + this.marksOfAll;
  }

  private async read(product: ProductId): Promise<ProductCatalog> {
    const asked = this.settings.now();
    // A mark made while this read is out (an answer naming a series it may not list, a 503)
    // may be about a catalog newer than the one this read brings: it stays for the next read.
    const marksBefore = this.marksOf(product);
    const answer = await this.settings.upstream.get(
      `${this.settings.productPath(product)}/v1/export/series`,
      "series_info",
    );
    if (answer.status < 200 || answer.status > 299) throw new CatalogUnavailable(answer);
    const byCode = entriesOf(product, answer.body);
    if (byCode === null) {
      throw new CatalogUnavailable({
        ...answer,
        status: 502,
        body: JSON.stringify({ message: "The service's Series Info answer is not a JSON list." }),
      });
    }
    // Read when the call was sent, not when its answer had come: members decide from readAt
    // whether the monthly release is out, and a read sent just before it must never count as
    // one made after it. The answer describes the service at some moment from the sending on,
    // so the sending is never late (an answer that does not say when: the read's start).
    const copy = { body: answer.body, byCode, readAt: answer.sentAt ?? asked };
    // A later copy taken meanwhile (another instance's, for a member holding it) stays: this
    // read was sent before it, and what is kept must be judged against the later catalog.
    const meanwhile = this.copies.get(product);
    if (meanwhile !== undefined && meanwhile.readAt > copy.readAt) {
      this.failedAt.delete(product);
      return meanwhile;
    }
    this.copies.set(product, copy);
    if (this.marksOf(product) === marksBefore) this.stale.delete(product);
    this.failedAt.delete(product);
    // Saved for a restart while the service is down, when it differs from what this gateway
    // last saved (a save the database refused, or did not make because it holds a later copy,
    // is tried again at the next read).
    if (this.savedBodies.get(product) !== copy.body) {
      try {
        const saved = await this.settings.saved.put(product, {
          body: copy.body,
          readAt: new Date(copy.readAt),
        });
        if (saved) this.savedBodies.set(product, copy.body);
      } catch {
        // Only a restart during downtime would miss it.
      }
    }
    return copy;
  }
}

/**
 * A refusal told again `elapsedMs` after it came: a Retry-After in seconds counts down with it
 * (a date stays as it is).
 */
function replayed(error: unknown, elapsedMs: number): unknown {
  if (!(error instanceof CatalogUnavailable)) return error;
  return new CatalogUnavailable({
    ...error.answer,
    retryAfter: retryAfterNow(error.answer.retryAfter, elapsedMs),
  });
}

/** The catalog's entries by code, or null when the text is not a JSON list. */
function entriesOf(product: ProductId, body: string): Map<string, CatalogEntry> | null {
  let records: unknown;
  try {
    records = JSON.parse(body);
  } catch {
    return null;
  }
  if (!Array.isArray(records)) return null;
  const byCode = new Map<string, CatalogEntry>();
  for (const record of records) {
    const entry = catalogEntry(product, record);
    if (entry !== null) byCode.set(entry.code, entry);
  }
  return byCode;
}
