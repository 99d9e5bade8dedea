// The pane's sentence per service condition: one per state, none contradicting another
// (never "available" in an outage, never a maintenance or a release for server errors).
import type { ServiceCondition } from "../../src/core/service-condition";
import { serviceConditionText } from "../../src/taskpane/outage-text";

const NOW = Date.UTC(2026, 10, 10, 18, 3);

test.each<[string, ServiceCondition, string, RegExp, "downtime" | "outage" | null]>([
  [
    "up",
    { kind: "up", lastAnswerAt: NOW - 60_000 },
    "success",
    /^The PCD service is available\. It last answered at 18:02 UTC\.$/,
    null,
  ],
  [
    "scheduled maintenance",
    { kind: "maintenance", until: NOW + 3_600_000, announced: false, throughGateway: false },
    "warning",
    /^The PCD service is in maintenance until .* \(1 h from now\)/,
    "downtime",
  ],
  [
    "announced maintenance",
    { kind: "maintenance", until: NOW + 3_600_000, announced: true, throughGateway: false },
    "warning",
    /^The PCD service said it is in maintenance until/,
    "downtime",
  ],
  [
    "release day",
    { kind: "release", until: NOW + 3_600_000, throughGateway: false },
    "warning",
    /^Release day: the service is closed until the new data is published \(by 22:00 US Central Time at the latest/,
    "downtime",
  ],
  [
    "maintenance, through a team gateway",
    { kind: "maintenance", until: NOW + 3_600_000, announced: false, throughGateway: true },
    "warning",
    /^The PCD service is in maintenance until .*\. Cached data stays available, and so do the series your team's gateway keeps\.$/,
    "downtime",
  ],
  [
    "release day, through a team gateway",
    { kind: "release", until: NOW + 3_600_000, throughGateway: true },
    "warning",
    /^Release day: .*\. Cached data stays available, and so do the series your team's gateway keeps\.$/,
    "downtime",
  ],
  [
    "failing (5xx)",
    {
      kind: "failing",
      since: NOW - 120_000,
      status: 503,
      reason: "The service is failing: it answered HTTP 503",
      retrying: true,
    },
    "warning",
    /^The PCD service is failing since 18:01 UTC: it answers HTTP 503, for a cause it did not say; cached values are kept; retrying/,
    "outage",
  ],
  [
    "unreachable",
    { kind: "unreachable", since: NOW - 120_000, reason: "refused", retrying: true },
    "warning",
    /^Can't reach the PCD service since 18:01 UTC; cached values are kept; retrying/,
    "outage",
  ],
  [
    "unreachable, through a team gateway (the gateway does not answer; the service may be up)",
    { kind: "unreachable", since: NOW - 120_000, reason: "refused", retrying: true, throughGateway: true },
    "warning",
    /^Can't reach your team's gateway since 18:01 UTC \(the PCD service behind it may be up\); cached values are kept; retrying/,
    "outage",
  ],
  [
    "failing, through a team gateway (its 502 may be its own or the service's: its words follow)",
    {
      kind: "failing",
      since: NOW - 120_000,
      status: 502,
      reason: "The gateway could not complete the purchase: the service could not be reached",
      retrying: true,
      throughGateway: true,
    },
    "warning",
    /^Your team's gateway answers HTTP 502 since 18:01 UTC: the gateway, or the PCD service behind it, is failing; cached values are kept; retrying/,
    "outage",
  ],
  [
    "unreachable while signed out (nothing calls: no 'retrying')",
    { kind: "unreachable", since: NOW - 120_000, reason: "refused", retrying: false },
    "warning",
    /^Can't reach the PCD service since 18:01 UTC; cached values are kept; PCD calls it again once you sign in \(the Account tab\)\.$/,
    "outage",
  ],
  [
    "failing while signed out",
    { kind: "failing", since: NOW - 120_000, status: 502, reason: null, retrying: false },
    "warning",
    /^The PCD service is failing since 18:01 UTC: it answers HTTP 502, for a cause it did not say; cached values are kept; PCD calls it again once you sign in/,
    "outage",
  ],
  ["signed out", { kind: "signed_out" }, "info", /^Signed out: PCD makes no call/, null],
])("%s", (_case, condition, intent, text, notice) => {
  const said = serviceConditionText(condition, NOW);
  expect(said.intent).toBe(intent);
  expect(said.text).toMatch(text);
  expect(said.notice).toBe(notice);
  if (condition.kind !== "up") expect(said.text).not.toContain("is available");
  if (condition.kind === "failing" || condition.kind === "unreachable") {
    expect(said.text).not.toMatch(/maintenance|release/i);
    expect(said.lastError).toBe(condition.reason);
  }
});
