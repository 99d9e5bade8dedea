import type { ServiceCondition } from "../../src/core/service-condition";
import type { RefreshState } from "../../src/host/refresh-runner";
import { refreshOutcomeNow, type RefreshOutcomeNow } from "../../src/taskpane/refresh-outcome";

const ENDED_AT = Date.parse("2026-12-03T13:00:00Z");
const SAME_DAY = Date.parse("2026-12-03T22:15:00Z");
const NEXT_DAY = Date.parse("2026-12-04T13:00:00Z");

const failed = (conditionAtEnd: ServiceCondition["kind"] | undefined): RefreshState => ({
  status: "failed",
  message: "…",
  endedAt: ENDED_AT,
  conditionAtEnd,
});
const done = (conditionAtEnd: ServiceCondition["kind"]): RefreshState => ({
  status: "done",
  summary: {
    updated: 0,
    revised: 0,
    unchanged: 0,
    failed: 1,
    requestsUsed: 0,
    failures: [],
    changes: [],
    startedAt: ENDED_AT,
    finishedAt: ENDED_AT,
  },
  endedAt: ENDED_AT,
  conditionAtEnd,
});
const up = (lastAnswerAt: number | null): ServiceCondition => ({ kind: "up", lastAnswerAt });
const release: ServiceCondition = {
  kind: "release",
  until: Date.parse("2026-12-04T04:00:00Z"),
  throughGateway: false,
};
const failing: ServiceCondition = {
  kind: "failing",
  since: ENDED_AT - 60_000,
  status: 503,
  reason: null,
  retrying: true,
};

const NOTHING: RefreshOutcomeNow = {
  refreshEndedInOutage: false,
  refreshOutcomeOutdated: false,
  refreshFailureOutdated: false,
};

// Judged from the outcome alone (the runner keeps when it ended and the condition then), so
// a view that mounts after the state changed says the same as one that saw it change.
test.each<[string, RefreshState, ServiceCondition | undefined, number, RefreshOutcomeNow]>([
  ["no refresh ended: nothing to judge", { status: "idle" }, up(null), SAME_DAY, NOTHING],
  [
    "refused on release day, the release is out now: the failure is no longer true",
    failed("release"),
    up(SAME_DAY),
    SAME_DAY,
    { ...NOTHING, refreshFailureOutdated: true },
  ],
  [
    "refused while signed out, signed in now: the failure is no longer true",
    failed("signed_out"),
    up(null),
    SAME_DAY,
    { ...NOTHING, refreshFailureOutdated: true },
  ],
  [
    "refused while signed out, still signed out: the failure stands",
    failed("signed_out"),
    { kind: "signed_out" },
    SAME_DAY,
    NOTHING,
  ],
  [
    "refused on release day, still release day: the failure stands",
    failed("release"),
    release,
    SAME_DAY,
    NOTHING,
  ],
  [
    "failed for a cause of its own, the service up: the failure stands",
    failed("up"),
    up(SAME_DAY),
    SAME_DAY,
    NOTHING,
  ],
  [
    "failed for a cause of its own, a day later: no longer shown",
    failed("up"),
    up(NEXT_DAY),
    NEXT_DAY,
    { ...NOTHING, refreshFailureOutdated: true },
  ],
  [
    "ended in an outage that goes on: the outage notice tells it",
    done("failing"),
    failing,
    SAME_DAY,
    { refreshEndedInOutage: true, refreshOutcomeOutdated: true, refreshFailureOutdated: false },
  ],
  [
    "ended in an outage, the service answered since: the outcome is outdated",
    done("failing"),
    up(ENDED_AT + 60_000),
    SAME_DAY,
    { refreshEndedInOutage: true, refreshOutcomeOutdated: true, refreshFailureOutdated: true },
  ],
  [
    "ended in an outage, no answer since: the outcome still stands",
    done("unreachable"),
    up(ENDED_AT - 60_000),
    SAME_DAY,
    { refreshEndedInOutage: true, refreshOutcomeOutdated: false, refreshFailureOutdated: true },
  ],
])("%s", (_name, state, condition, now, expected) => {
  expect(refreshOutcomeNow(state, condition, now)).toEqual(expected);
});
