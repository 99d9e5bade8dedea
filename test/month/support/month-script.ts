// The month script: December 2026 as a user lives it, one step per moment that matters.
// Each step is a time (UTC; December is US Central Standard Time, UTC-6), the service's
// state at that time (a row of the truth table in service-truth.ts), what changes at the
// service then, and what the user does (nothing, open the workbook, refresh all). The walk
// (month-walk.ts) lives through the time between two steps with every timer firing, so
// what the cells do by themselves (their retries) happens as it would in Excel.
//
// To add a step: insert it in time order in MONTH_STEPS with the service's state, the
// change at the service (an admin control, the lab's network switch) and the user's
// action. A step after which the service is back sets `settles`: the cells are then read
// SETTLE_MS later without any user action. A new announced downtime also goes in
// ANNOUNCED_DOWNTIME.
import type { Operation } from "../../../src/core/model";
import type { ServiceCondition } from "./service-truth";
import type { MonthLab } from "./month-lab";
import type { MonthWorkbook } from "./month-workbook";

/** Seed of the emulator's data and of the cells' retry jitter. */
export const MONTH_SEED = 1;
/** The release's publication hour (US Central), seeded: between 09:00 and 20:00, before 22:00. */
export const RELEASE_HOUR_CENTRAL = 9 + ((MONTH_SEED * 7) % 12);
/** The walk's first instant: Tuesday 1 December 2026, 09:00 US Central. */
export const MONTH_START = "2026-12-01T15:00:00Z";

/**
 * How long after the service is back every cell must show a value, or a message naming
 * the current cause, with no user action: the longest scheduled retry of a cell (15 min)
 * with its jitter (a quarter more), rounded up. After an announced window the time counts
 * from the window's announced end (the engine calls nothing inside it).
 */
export const SETTLE_MS = 20 * 60_000;

/** Calls any one operation may make in any clock hour, in any state: more is a loop. */
export const MAX_CALLS_PER_OPERATION_PER_HOUR = 40;

/**
 * Calls the engine may make inside an announced downtime: the documented probes
 * (docs/taskpane.md, the month's states). On release day, a cost preview or a refresh the
 * user asks for reads Series Info of the workbook's products (no data request), at most
 * one per product for each, to learn whether the data is out. Nothing else is called in a
 * window, maintenance included.
 */
export interface DowntimeProbe {
  operation: Operation;
  window: DowntimeKind;
  /** Calls allowed for each preview or refresh the user asks for inside the window. */
  perUserAction: number;
}

export type DowntimeKind = "release" | "maintenance";

export const DOCUMENTED_PROBES: readonly DowntimeProbe[] = [
  // The workbook's three products (month-workbook.ts).
  { operation: "series_info", window: "release", perUserAction: 3 },
];

export type UserAction =
  /** Nothing: the workbook stays open, its cells live. */
  | "none"
  /** The workbook is recalculated (opened again), and a formula is typed on a code not yet asked. */
  | "open"
  /** Refresh all from the pane: its cost preview first, then the refresh, then a recalculation. */
  | "refresh"
  /** The user signs in again (the pane's sign-in). */
  | "sign-in"
  /** The pane's Usage tab is open: Usage and the cost preview are read, nothing is refreshed. */
  | "look";

export interface MonthStep {
  name: string;
  at: string;
  service: ServiceCondition;
  /**
   * What the engine may say instead while it cannot know better: on release day it calls
   * nothing until 22:00 US Central (but the Series Info probe of a preview or refresh the
   * user asks for), so a release published earlier may not be seen until then.
   */
  mayStillSay?: ServiceCondition;
  /** What changes at the service at this instant. */
  change?: (lab: MonthLab, book: MonthWorkbook) => Promise<void>;
  user: UserAction;
  /** The service is back from this step on: the cells are read SETTLE_MS later. */
  settles?: boolean;
}

const fault503 = { operation: "*", mode: "status", status: 503 };
const clearFaults = (lab: MonthLab): Promise<unknown> => lab.admin("faults", undefined, "DELETE");

export const MONTH_STEPS: readonly MonthStep[] = [
  { name: "first open, an ordinary day", at: "2026-12-01T15:00:00Z", service: "up", user: "open" },
  { name: "an ordinary day", at: "2026-12-02T15:00:00Z", service: "up", user: "open" },
  { name: "release day, before the downtime", at: "2026-12-03T11:30:00Z", service: "up", user: "open" },
  { name: "release-day downtime", at: "2026-12-03T12:30:00Z", service: "release", user: "open" },
  {
    name: "Refresh now in the release-day downtime",
    at: "2026-12-03T13:00:00Z",
    service: "release",
    user: "refresh",
  },
  { name: "release day, afternoon", at: "2026-12-03T19:00:00Z", service: "release", user: "open" },
  {
    name: "release published",
    at: "2026-12-03T22:15:00Z",
    service: "up",
    mayStillSay: "release",
    user: "open",
  },
  { name: "release day over", at: "2026-12-04T04:00:00Z", service: "up", user: "none", settles: true },
  { name: "refresh after the release", at: "2026-12-04T04:30:00Z", service: "up", user: "refresh" },
  { name: "late updates", at: "2026-12-04T18:00:00Z", service: "up", user: "open" },
  {
    name: "503 storm",
    at: "2026-12-08T16:00:00Z",
    service: "outage",
    change: async (lab) => {
      await lab.admin("faults", fault503);
    },
    user: "open",
  },
  {
    name: "503 storm over",
    at: "2026-12-08T18:00:00Z",
    service: "up",
    change: async (lab) => {
      await clearFaults(lab);
    },
    user: "none",
    settles: true,
  },
  {
    name: "network drop",
    at: "2026-12-09T16:00:00Z",
    service: "unreachable",
    change: async (lab) => {
      lab.networkDown = true;
    },
    user: "open",
  },
  {
    name: "network back",
    at: "2026-12-09T17:00:00Z",
    service: "up",
    change: async (lab) => {
      lab.networkDown = false;
    },
    user: "none",
    settles: true,
  },
  {
    name: "Usage tab open before an off-schedule release",
    at: "2026-12-10T16:57:00Z",
    service: "up",
    user: "look",
  },
  {
    name: "off-schedule release",
    at: "2026-12-10T17:00:00Z",
    service: "up",
    change: async (lab) => {
      await lab.admin("release", {});
    },
    user: "refresh",
  },
  {
    name: "token renewals refused",
    at: "2026-12-11T15:00:00Z",
    service: "up",
    change: async (lab) => {
      await lab.admin("faults", { operation: "access_token", mode: "status", status: 401 });
    },
    user: "none",
  },
  { name: "token expired", at: "2026-12-11T19:00:00Z", service: "signed-out", user: "open" },
  {
    name: "signed in again",
    at: "2026-12-11T19:30:00Z",
    service: "up",
    change: async (lab) => {
      await clearFaults(lab);
    },
    user: "sign-in",
    settles: true,
  },
  { name: "maintenance on the 15th", at: "2026-12-15T13:00:00Z", service: "maintenance", user: "open" },
  {
    name: "maintenance of the 15th over",
    at: "2026-12-16T04:00:00Z",
    service: "up",
    user: "none",
    settles: true,
  },
  {
    name: "History-only revision",
    at: "2026-12-17T17:00:00Z",
    service: "up",
    change: async (lab, book) => {
      await lab.admin("revise", { codes: book.revised });
    },
    user: "refresh",
  },
  { name: "maintenance on the 25th", at: "2026-12-25T14:00:00Z", service: "maintenance", user: "open" },
  {
    name: "maintenance of the 25th over",
    at: "2026-12-26T04:00:00Z",
    service: "up",
    user: "none",
    settles: true,
  },
  { name: "month end", at: "2026-12-31T18:00:00Z", service: "up", user: "open" },
];

/** The month's announced downtime (docs/service.md §8.3): the calendar's windows, in UTC. */
export const ANNOUNCED_DOWNTIME: ReadonlyArray<{
  what: string;
  kind: DowntimeKind;
  from: string;
  to: string;
}> = [
  {
    what: "release-day downtime (06:00 US Central until the release is published)",
    kind: "release",
    from: "2026-12-03T12:00:00Z",
    to: new Date(Date.parse("2026-12-03T06:00:00Z") + RELEASE_HOUR_CENTRAL * 3_600_000).toISOString(),
  },
  {
    what: "maintenance of the 15th",
    kind: "maintenance",
    from: "2026-12-15T12:00:00Z",
    to: "2026-12-16T04:00:00Z",
  },
  {
    what: "maintenance of the 25th",
    kind: "maintenance",
    from: "2026-12-25T12:00:00Z",
    to: "2026-12-26T04:00:00Z",
  },
];
