// Which month is published and what each release did (docs/decisions.md D24). The published
// month is the calendar's latest concluded month plus the number of manual releases; a
// release (by the clock passing a release instant or by /__admin/release) may revise the
// history of some series and leave a few not updated. Only the latest release's effects
// show in series_hist_changed, as on the real service.
//
// A release moves each series' last final by one month at most. A series not updated at a
// release gets that month in a late update LATE_UPDATE_DAYS later (updated_at is then the
// late update's date). When the next release comes first (manual releases, a clock moved
// ahead), that release brings the late month instead of its own: the series moves one
// month and stays one behind until its next late update.
import type { Catalog, SeriesDefinition } from "./catalog";
import { centralDate } from "./central-time";
import type { OffsetClock } from "./clock";
import { keyedSeeds, Prng } from "./prng";
import { releaseDateOf, scheduledLatestMonth } from "./schedule";
import type { Revision } from "./values";

/** Share of series whose history a default release revises, and that it leaves not updated. */
const REVISED_SHARE = 0.03;
const UNCHANGED_SHARE = 0.05;
/** Days after a release at which the series it did not update get their month. */
// One day: a late series is caught up by the time most tests start (a few days after the
// release day), so only a test that moves the clock a day past a release sees it change.
export const LATE_UPDATE_DAYS = 1;

export interface ReleaseRecord {
  month: number;
  /** "YYYY-MM-DD" of the release (updated_at of the series it updated). */
  date: string;
  revised: ReadonlySet<string>;
  unchanged: ReadonlySet<string>;
}

export interface ReleaseOverrides {
  revise?: readonly string[];
  unchanged?: readonly string[];
}

/** What a series looks like at the current release. */
export interface SeriesView {
  lastFinal: number;
  updatedAt: string;
  histChanged: boolean;
  revisions: readonly Revision[];
}

export class ReleaseState {
  private manualReleases = 0;
  private syncedMonth: number;
  private readonly records = new Map<number, ReleaseRecord>();
  private readonly applied = new Set<number>();
  private readonly revisions = new Map<string, Revision[]>();
  /** Codes revised by /__admin/revise since the latest release, with the revision date. */
  private readonly adHocRevised = new Map<string, string>();
  private pendingOverrides: ReleaseOverrides | undefined;

  constructor(
    private readonly seed: number,
    private readonly catalog: Catalog,
    private readonly clock: OffsetClock,
    private readonly releaseHour: number,
    private readonly onRelease: (record: ReleaseRecord) => void,
  ) {
    this.syncedMonth = this.published();
  }

  /** Month index of the latest concluded month (before lags and held-back series). */
  published(): number {
    return scheduledLatestMonth(this.clock.now(), this.releaseHour) + this.manualReleases;
  }

  /** Applies releases the clock has passed since the last look; returns the published month. */
  sync(): number {
    const published = this.published();
    for (let month = this.syncedMonth + 1; month <= published; month += 1) {
      const record = this.createRecord(month, centralDate(this.clock.now()), this.pendingOverrides);
      this.applyRecord(record);
    }
    this.pendingOverrides = undefined;
    // A clock set backwards simply shows the earlier month again; nothing is undone.
    this.syncedMonth = published;
    return published;
  }

  /** Publishes one more month now (/__admin/release). */
  releaseNow(overrides: ReleaseOverrides = {}): ReleaseRecord {
    this.sync();
    this.manualReleases += 1;
    this.pendingOverrides = overrides;
    const month = this.sync();
    return this.record(month);
  }

  /** Revises the history of some series without publishing a month (/__admin/revise). */
  reviseNow(codes: readonly string[]): void {
    const published = this.sync();
    const date = centralDate(this.clock.now());
    for (const code of codes) {
      const series = this.catalog.get(code);
      if (series === undefined) continue;
      this.addRevision(series, this.viewAt(series, published).lastFinal);
      this.adHocRevised.set(code, date);
    }
  }

  view(series: SeriesDefinition): SeriesView {
    return this.viewAt(series, this.syncedMonth);
  }

  private viewAt(series: SeriesDefinition, published: number): SeriesView {
    const revisions = this.revisions.get(series.code) ?? [];
    if (series.discontinuedMonth !== undefined) {
      return {
        lastFinal: series.discontinuedMonth,
        updatedAt: releaseDateOf(series.discontinuedMonth),
        histChanged: false,
        revisions,
      };
    }
    const latest = this.record(published);
    const late = this.lateAfter(series.code, published);
    const lateUpdate = lateUpdateOf(latest.date);
    const caughtUp = late && centralDate(this.clock.now()) >= lateUpdate;
    const behind = late && !caughtUp ? 1 : 0;
    let releaseDate = latest.date;
    if (caughtUp) releaseDate = lateUpdate;
    else if (late && !this.carriedOver(series.code, published - 1)) {
      releaseDate = this.updatedAtRelease(series.code, published);
    }
    const adHocDate = this.adHocRevised.get(series.code);
    return {
      lastFinal: Math.max(series.startMonth, published - series.lag - behind),
      updatedAt: adHocDate !== undefined && adHocDate > releaseDate ? adHocDate : releaseDate,
      histChanged: latest.revised.has(series.code) || adHocDate !== undefined,
      revisions,
    };
  }

  /** Whether a series was one month behind right after the release of `month`. */
  private lateAfter(code: string, month: number): boolean {
    return this.record(month).unchanged.has(code) || this.carriedOver(code, month - 1);
  }

  /**
   * Whether a series late after the release of `month` was still late when the next release
   * came (its late update not yet due): that release then brought only the late month.
   * Checks the dates first, so the look back stops at the first release a month apart.
   */
  private carriedOver(code: string, month: number): boolean {
    const lateUpdate = lateUpdateOf(this.dateOf(month));
    return lateUpdate > this.dateOf(month + 1) && this.lateAfter(code, month);
  }

  /** The updated_at a series had when the release of `month` came (one it did not update). */
  private updatedAtRelease(code: string, month: number): string {
    if (!this.lateAfter(code, month - 1)) return this.dateOf(month - 1);
    return lateUpdateOf(this.dateOf(month - 1));
  }

  /** The release that published a month: recorded if it happened while running, else the default. */
  record(month: number): ReleaseRecord {
    const known = this.records.get(month);
    if (known !== undefined) return known;
    const record = this.createRecord(month, releaseDateOf(month), undefined);
    this.records.set(month, record);
    return record;
  }

  private dateOf(month: number): string {
    return this.records.get(month)?.date ?? releaseDateOf(month);
  }

  private createRecord(month: number, date: string, overrides: ReleaseOverrides | undefined): ReleaseRecord {
    const drawn = drawnSelection(this.seed, this.catalog, month);
    return {
      month,
      date,
      revised: overrides?.revise !== undefined ? new Set(overrides.revise) : drawn.revised,
      unchanged: overrides?.unchanged !== undefined ? new Set(overrides.unchanged) : drawn.unchanged,
    };
  }

  private applyRecord(record: ReleaseRecord): void {
    if (!this.applied.has(record.month)) {
      this.applied.add(record.month);
      this.records.set(record.month, record);
      for (const code of record.revised) {
        const series = this.catalog.get(code);
        if (series !== undefined) this.addRevision(series, record.month - series.lag);
      }
    }
    this.adHocRevised.clear();
    this.onRelease(record);
  }

  private addRevision(series: SeriesDefinition, beforeMonth: number): void {
    const list = this.revisions.get(series.code) ?? [];
    list.push({ beforeMonth });
    this.revisions.set(series.code, list);
  }
}

interface Selection {
  revised: ReadonlySet<string>;
  unchanged: ReadonlySet<string>;
}

/**
 * The series a release of a month revises and leaves not updated unless told otherwise: a draw
 * per series of the catalog, the same for every emulator on that catalog and seed, so it is
 * drawn once (a test starts many emulators, each looking at several months).
 */
const drawnSelections = new WeakMap<Catalog, Map<string, Selection>>();

function drawnSelection(seed: number, catalog: Catalog, month: number): Selection {
  let byMonth = drawnSelections.get(catalog);
  if (byMonth === undefined) {
    byMonth = new Map();
    drawnSelections.set(catalog, byMonth);
  }
  const key = `${seed}|${month}`;
  const known = byMonth.get(key);
  if (known !== undefined) return known;
  const revised = new Set<string>();
  const unchanged = new Set<string>();
  const reviseSeed = keyedSeeds(seed, "revise", month);
  const unchangedSeed = keyedSeeds(seed, "unchanged", month);
  for (const series of catalog.series) {
    if (series.discontinuedMonth !== undefined) continue;
    if (new Prng(reviseSeed(series.code)).next() < REVISED_SHARE) revised.add(series.code);
    else if (new Prng(unchangedSeed(series.code)).next() < UNCHANGED_SHARE) unchanged.add(series.code);
  }
  const selection = { revised, unchanged };
  byMonth.set(key, selection);
  return selection;
}

/** Late-update dates by release date: a Series Info answer asks for them once per series. */
const lateUpdates = new Map<string, string>();

/** "YYYY-MM-DD" LATE_UPDATE_DAYS after a release (calendar arithmetic in UTC: dates here are labels). */
function lateUpdateOf(releaseDate: string): string {
  let date = lateUpdates.get(releaseDate);
  if (date === undefined) {
    const instant = Date.parse(`${releaseDate}T00:00:00Z`) + LATE_UPDATE_DAYS * 86_400_000;
    date = new Date(instant).toISOString().slice(0, 10);
    lateUpdates.set(releaseDate, date);
  }
  return date;
}
