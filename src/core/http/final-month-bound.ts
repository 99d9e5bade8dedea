// The latest month a final value can be for: the current release month. A release made in
// a month carries final values up to the month before, so a final value dated after the
// month now is in (Central Time, the service's clock) cannot be data: its "latest" would
// be a month still to come (up to 9999-12), shown as current. Such a record is a protocol
// error for its code. The current month itself is let through: it leaves room for a
// client clock somewhat behind the service's, and for a release published early.
import { centralParts } from "../central-time";
import type { Month } from "../model";
import { monthOfIndex } from "../months";

/** The month now is in, in Central Time ("2026-11" on 18 November 2026). */
export function latestPossibleFinal(now: number): Month {
  const { year, month } = centralParts(now);
  return monthOfIndex(year * 12 + (month - 1));
}
