// Members' budgets and the usage report count what the service counts: a dataset's allowance
// runs from one monthly release to the next (docs/service.md §3, §8.2 rule 3), not from the
// 1st of the month. A period is named by the month of the release that opens it: "2026-11"
// runs from November's release to December's. The gateway takes the release day from its
// --release-day flag, kept in the database for every instance (release-day.ts), as the add-in
// takes it from its setting (the Nth business day, 06:00 US Central, docs/service.md §8.3): the
// service is down from then until the new data is out, so no purchase falls between the
// boundary and the service's own reset.
import { centralParts } from "../../core/central-time";
import { latestReleaseStart, nextReleaseStart, releaseStartOf } from "../../core/release-calendar";
import type { TimeRange } from "../store/gateway-store";

export interface AllowancePeriod extends TimeRange {
  /** "YYYY-MM": the month of the release that opens the period. */
  name: string;
}

function periodFrom(start: number, releaseBusinessDay: number): AllowancePeriod {
  const opened = centralParts(start);
  return {
    name: `${String(opened.year).padStart(4, "0")}-${String(opened.month).padStart(2, "0")}`,
    start: new Date(start),
    end: new Date(nextReleaseStart(start, releaseBusinessDay)),
  };
}

/** The allowance period that holds `at`. */
export function allowancePeriodAt(at: Date, releaseBusinessDay: number): AllowancePeriod {
  return periodFrom(latestReleaseStart(at.getTime(), releaseBusinessDay), releaseBusinessDay);
}

/** "YYYY-MM" to the period its month's release opens; null when the text is not such a month. */
export function allowancePeriodNamed(name: string, releaseBusinessDay: number): AllowancePeriod | null {
  const match = /^(\d{4})-(\d{2})$/.exec(name);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  // Before 1970 nothing was bought (and Date.UTC reads years below 100 as 19xx).
  if (year < 1970 || month < 1 || month > 12) return null;
  return periodFrom(releaseStartOf(year, month, releaseBusinessDay), releaseBusinessDay);
}

/** "2026-12-03": the day a period ends (its next release), for messages. */
export function releaseDate(period: TimeRange): string {
  const day = centralParts(period.end.getTime());
  return `${String(day.year).padStart(4, "0")}-${String(day.month).padStart(2, "0")}-${String(day.day).padStart(2, "0")}`;
}
