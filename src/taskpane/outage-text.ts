// What the pane says about the service, from its one condition (src/core/service-condition.ts):
// the Status tab, the notice above every tab and the outage notice all take their sentence
// from here, so they cannot contradict each other. Times of an outage are in UTC (the time
// the service and its notes use).
import type { ServiceCondition } from "../core/service-condition";
import { unavailableText } from "./messages";

/** "14:02 UTC" (with the date in front when it is not today). */
export function utcTime(epochMs: number, now: number): string {
  const iso = new Date(epochMs).toISOString();
  const time = `${iso.slice(11, 16)} UTC`;
  return iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? time : `${iso.slice(0, 10)} ${time}`;
}

const RETRYING =
  "cached values are kept; retrying (cells try again by themselves, and with every calculation or refresh).";

/** Signed out, nothing calls the service: what was seen stays until a sign-in calls again. */
const NOT_RETRYING = "cached values are kept; PCD calls it again once you sign in (the Account tab).";

/**
 * Server errors (a status) or no answer at all (null), since when. Through a team gateway the
 * calls go to the gateway, never to the service: a gateway that does not answer says nothing of
 * the service, and its 5xx may be its own failure or the service's passed on (its words, shown
 * under the sentence, say which), so the sentence names the gateway.
 */
function outageSentence(
  since: number,
  status: number | null,
  retrying: boolean,
  now: number,
  throughGateway: boolean,
): string {
  const at = utcTime(since, now);
  const next = retrying ? RETRYING : NOT_RETRYING;
  if (throughGateway) {
    if (status !== null) {
      return `Your team's gateway answers HTTP ${status} since ${at}: the gateway, or the PCD service behind it, is failing; ${next}`;
    }
    return `Can't reach your team's gateway since ${at} (the PCD service behind it may be up); ${next}`;
  }
  if (status !== null) {
    return `The PCD service is failing since ${at}: it answers HTTP ${status}, for a cause it did not say; ${next}`;
  }
  return `Can't reach the PCD service since ${at}; ${next}`;
}

export interface ServiceConditionText {
  intent: "success" | "warning" | "info";
  text: string;
  /** The last failure's own words (an outage), shown under the sentence. */
  lastError: string | null;
  /** Where else the pane says it: the downtime notice, the outage notice, or nowhere. */
  notice: "downtime" | "outage" | null;
}

/** The Status tab's sentence for a condition (the notices use the same text). */
export function serviceConditionText(condition: ServiceCondition, now: number): ServiceConditionText {
  switch (condition.kind) {
    case "up": {
      const last =
        condition.lastAnswerAt === null
          ? ""
          : ` It last answered at ${utcTime(condition.lastAnswerAt, now)}.`;
      return {
        intent: "success",
        text: `The PCD service is available.${last}`,
        lastError: null,
        notice: null,
      };
    }
    case "maintenance":
      return {
        intent: "warning",
        text: unavailableText(condition.until, now, "maintenance", {
          announced: condition.announced,
          throughGateway: condition.throughGateway,
        }),
        lastError: null,
        notice: "downtime",
      };
    case "release":
      return {
        intent: "warning",
        text: unavailableText(condition.until, now, "release", { throughGateway: condition.throughGateway }),
        lastError: null,
        notice: "downtime",
      };
    case "failing":
    case "unreachable":
      return {
        intent: "warning",
        text: outageSentence(
          condition.since,
          condition.kind === "failing" ? condition.status : null,
          condition.retrying,
          now,
          condition.throughGateway === true,
        ),
        lastError: condition.reason,
        notice: "outage",
      };
    case "signed_out":
      return {
        intent: "info",
        text: "Signed out: PCD makes no call to the service until you sign in (the Account tab).",
        lastError: null,
        notice: null,
      };
  }
}
