// When refresh-all last brought the workbook up to date, kept in the workbook's storage, and
// whether a release came out since. Excel needs this at start (the pane's "refresh due" and the
// cache info); refresh-all itself (src/core/refresh.ts) loads on first use.
import type { KeyValueStorage, Logger } from "./environment";
import type { ProductId, ServiceEnvironment } from "./model";
import { errorMessage } from "./errors";
import type { SeriesSync } from "./series-sync";
import type { WorkbookKeys } from "./workbook-keys";

export const LAST_REFRESH_STORAGE_KEY = "pcd:last-refresh";
/** By "environment|product": when a catalog read last showed a release of it (kept for the next session). */
export const RELEASES_SEEN_STORAGE_KEY = "pcd:releases-seen";

export interface LastRefreshOptions {
  /** The computer's storage: which releases catalog reads showed (true of every workbook). */
  storage: KeyValueStorage;
  /**
   * The workbook's own storage: when refresh-all last brought this workbook up to date. Another
   * workbook refreshed after a release says nothing of this one.
   */
  workbookStorage: KeyValueStorage;
  sync: Pick<SeriesSync, "cached">;
  workbookKeys: Pick<WorkbookKeys, "list">;
  /**
   * Epoch ms of the start of the latest release known to be published: on release day,
   * before the service answers again, the one before (the new data is not out yet).
   */
  latestReleaseOut: () => number;
  /** The engine's clock: a stored time later than now is not believed. */
  now: () => number;
  log?: Logger;
}

export class LastRefresh {
  private last: number | null = null;
  /** By "environment|product": when a catalog read last showed a release of it. */
  private readonly releasesSeen = new Map<string, number>();

  constructor(private readonly options: LastRefreshOptions) {}

  async load(): Promise<void> {
    const [stored, seen] = await Promise.all([
      this.options.workbookStorage.get<unknown>(LAST_REFRESH_STORAGE_KEY),
      this.options.storage.get<unknown>(RELEASES_SEEN_STORAGE_KEY),
    ]);
    // The workbook came from someone's file: a time later than now (which would hide every
    // coming release) counts as never refreshed.
    if (typeof stored === "number" && Number.isFinite(stored) && stored <= this.options.now())
      this.last = stored;
    // Only times are taken from storage; anything else in it is left out.
    if (typeof seen === "object" && seen !== null && !Array.isArray(seen)) {
      for (const [scope, at] of Object.entries(seen)) {
        if (typeof at === "number" && Number.isFinite(at) && !this.releasesSeen.has(scope))
          this.releasesSeen.set(scope, at);
      }
    }
  }

  /** Epoch ms of the last refresh-all that counted, or null (never refreshed). */
  at(): number | null {
    return this.last;
  }

  /** A refresh-all that brought the workbook up to date finished at `at`; a failed save is logged. */
  async record(at: number): Promise<void> {
    this.last = at;
    try {
      await this.options.workbookStorage.set(LAST_REFRESH_STORAGE_KEY, at);
    } catch (error) {
      this.options.log?.("warn", `Could not save the refresh time: ${errorMessage(error)}`);
    }
  }

  /**
   * A catalog read showed a release of the product: one the calendar does not know of (a
   * day late, or off schedule) counts for due() from then on.
   */
  releaseSeen(environment: ServiceEnvironment, product: ProductId, at: number): void {
    this.releasesSeen.set(`${environment}|${product}`, at);
    // Kept for the next session: after a restart the calendar alone would no longer offer it.
    this.options.storage
      .set(RELEASES_SEEN_STORAGE_KEY, Object.fromEntries(this.releasesSeen))
      .catch((error: unknown) => {
        this.options.log?.("warn", `Could not save when a release was seen: ${errorMessage(error)}`);
      });
  }

  /**
   * A release came out since the workbook's data was fetched: since the last refresh-all,
   * or, in a workbook never refreshed, since its oldest cached series was fetched.
   */
  due(): boolean {
    let since = this.last;
    for (const key of since === null ? this.options.workbookKeys.list() : []) {
      const fetchedAt = this.options.sync.cached(key.id)?.fetchedAt;
      if (fetchedAt !== undefined && (since === null || fetchedAt < since)) since = fetchedAt;
    }
    if (since === null) return false;
    // Only a release that is out counts: release day's downtime starts at 06:00, the data
    // comes hours later (the catalog's first answer tells, or the 22:00 deadline), and before
    // then a refresh could only fail.
    if (since < this.options.latestReleaseOut()) return true;
    // A release the calendar does not know of counts once a catalog read showed it, for a
    // product the workbook uses (a catalog read of another product says nothing of it).
    if (this.releasesSeen.size === 0) return false;
    const products = new Set(
      this.options.workbookKeys.list().map((key) => `${key.environment}|${key.product}`),
    );
    return [...products].some((product) => (this.releasesSeen.get(product) ?? -Infinity) > since);
  }
}
