// One classification of the service's state, a row per state of the month: the Status tab,
// the notices and the cells read it, so each state has exactly one name.
import type { ServiceReachability, ServiceState } from "../../src/core/engine-api";
import { serviceCondition, type ServiceCondition } from "../../src/core/service-condition";

const NOW = Date.UTC(2026, 10, 10, 18);
const UNTIL = Date.UTC(2026, 10, 11, 4);
const SINCE = NOW - 600_000;

const open: ServiceState = {
  available: true,
  reason: null,
  until: null,
  nextRelease: Date.UTC(2026, 11, 3, 12),
  nextMaintenance: Date.UTC(2026, 10, 15, 12),
};

const answering: ServiceReachability = {
  unreachableSince: null,
  reason: null,
  maintenanceUntil: null,
  lastAnswerAt: NOW - 1000,
  failingStatus: null,
};

test.each<[string, ServiceState, boolean, ServiceCondition]>([
  ["calls answered", { ...open, reachability: answering }, true, { kind: "up", lastAnswerAt: NOW - 1000 }],
  ["nothing observed yet", open, true, { kind: "up", lastAnswerAt: null }],
  [
    "the calendar's maintenance window",
    { ...open, available: false, reason: "maintenance", until: UNTIL, reachability: answering },
    true,
    { kind: "maintenance", until: UNTIL, announced: false, throughGateway: false },
  ],
  [
    "the calendar's maintenance window, through a team gateway",
    { ...open, available: false, reason: "maintenance", until: UNTIL, throughGateway: true },
    true,
    { kind: "maintenance", until: UNTIL, announced: false, throughGateway: true },
  ],
  [
    "release-day downtime, through a team gateway",
    { ...open, available: false, reason: "release", until: UNTIL, throughGateway: true },
    true,
    { kind: "release", until: UNTIL, throughGateway: true },
  ],
  [
    "the calendar's maintenance window, through a team gateway that does not answer",
    {
      ...open,
      available: false,
      reason: "maintenance",
      until: UNTIL,
      throughGateway: true,
      reachability: { ...answering, unreachableSince: SINCE, reason: "connection refused" },
    },
    true,
    { kind: "unreachable", since: SINCE, reason: "connection refused", retrying: true, throughGateway: true },
  ],
  [
    "sandbox through a team gateway that does not answer (it relays, keeping none): the gateway named",
    {
      ...open,
      callsToGateway: true,
      reachability: { ...answering, unreachableSince: SINCE, reason: "connection refused" },
    },
    true,
    { kind: "unreachable", since: SINCE, reason: "connection refused", retrying: true, throughGateway: true },
  ],
  ...[500, 502, 503, 504].map((status): [string, ServiceState, boolean, ServiceCondition] => [
    `the calendar's maintenance window, through a team gateway failing with ${status} of its own`,
    {
      ...open,
      available: false,
      reason: "maintenance",
      until: UNTIL,
      throughGateway: true,
      reachability: { ...answering, unreachableSince: SINCE, reason: String(status), failingStatus: status },
    },
    true,
    { kind: "failing", since: SINCE, status, reason: String(status), retrying: true, throughGateway: true },
  ]),
  [
    "the calendar's maintenance window, through a team gateway passing on the service's 503 (it keeps no copy)",
    {
      ...open,
      available: false,
      reason: "maintenance",
      until: UNTIL,
      throughGateway: true,
      reachability: {
        ...answering,
        unreachableSince: SINCE,
        reason: "503",
        failingStatus: 503,
        failingInWindow: true,
      },
    },
    true,
    { kind: "maintenance", until: UNTIL, announced: false, throughGateway: true },
  ],
  [
    "a maintenance the service announced",
    {
      ...open,
      available: false,
      reason: "maintenance",
      until: UNTIL,
      reachability: { ...answering, maintenanceUntil: UNTIL },
    },
    true,
    { kind: "maintenance", until: UNTIL, announced: true, throughGateway: false },
  ],
  [
    "release-day downtime, even while calls fail (503 is expected then)",
    {
      ...open,
      available: false,
      reason: "release",
      until: UNTIL,
      reachability: { ...answering, unreachableSince: SINCE, reason: "503", failingStatus: 503 },
    },
    true,
    { kind: "release", until: UNTIL, throughGateway: false },
  ],
  [
    "server errors outside any window: failing",
    {
      ...open,
      reachability: { ...answering, unreachableSince: SINCE, reason: "HTTP 503", failingStatus: 503 },
    },
    true,
    { kind: "failing", since: SINCE, status: 503, reason: "HTTP 503", retrying: true },
  ],
  [
    "no answer at all: unreachable",
    { ...open, reachability: { ...answering, unreachableSince: SINCE, reason: "refused" } },
    true,
    { kind: "unreachable", since: SINCE, reason: "refused", retrying: true },
  ],
  [
    "an ordinary day, through a team gateway that does not answer: the gateway is unreachable, not the service",
    {
      ...open,
      throughGateway: true,
      reachability: { ...answering, unreachableSince: SINCE, reason: "connection refused" },
    },
    true,
    { kind: "unreachable", since: SINCE, reason: "connection refused", retrying: true, throughGateway: true },
  ],
  [
    "an ordinary day, through a team gateway answering 502 (it could not reach the service): the gateway's answer",
    {
      ...open,
      throughGateway: true,
      reachability: { ...answering, unreachableSince: SINCE, reason: "502", failingStatus: 502 },
    },
    true,
    { kind: "failing", since: SINCE, status: 502, reason: "502", retrying: true, throughGateway: true },
  ],
  [
    "an outage is told even when signed out (a sign-in got no answer), as not retried",
    { ...open, reachability: { ...answering, unreachableSince: SINCE, reason: "refused" } },
    false,
    { kind: "unreachable", since: SINCE, reason: "refused", retrying: false },
  ],
  ["signed out", { ...open, reachability: answering }, false, { kind: "signed_out" }],
])("%s", (_case, state, signedIn, expected) => {
  expect(serviceCondition(state, signedIn)).toEqual(expected);
});
