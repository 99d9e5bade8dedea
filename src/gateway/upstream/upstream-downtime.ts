// While the service says it is down (maintenance, release day: docs/service.md §8.3), the
// gateway asks it again at most once a minute, whoever asks the gateway meanwhile. Downtime lasts
// hours, and every call made then could only fail while counting against the team's daily quota
// of 8,000 calls and its rate of 10 a second: members' scripts, their cells retrying and a
// catalog due for a read would otherwise each send their own. What the members get meanwhile is
// the service's refusal as it was, told in the gateway's words with when it was received.
import { OPERATION_LABELS } from "../../core/http/classify";
import type { GatewayOperation } from "../gateway-operation";
import type { UpstreamAnswer } from "./upstream-client";
import { downtimeIn, safeRetryAfter, type Downtime } from "./upstream-refusal";

/** How long a downtime answer stands for every call of the gateway's. */
export const DOWNTIME_RECHECK_MS = 60_000;

interface Seen {
  downtime: Downtime;
  status: number;
  retryAfter: string | null;
  at: number;
}

export class UpstreamDowntime {
  private seen: Seen | null = null;

  constructor(private readonly now: () => number) {}

  /**
   * Notes what the service answered a call (its own status and text, before the gateway rewords
   * it): a 5xx naming a downtime starts the wait; any other answer ends it.
   */
  note(answer: Pick<UpstreamAnswer, "status" | "body" | "retryAfter">): void {
    const downtime = answer.status >= 500 ? downtimeIn(answer.body) : null;
    this.seen =
      downtime === null
        ? null
        : { downtime, status: answer.status, retryAfter: safeRetryAfter(answer.retryAfter), at: this.now() };
  }

  /** The answer a call gets without being sent, while the last downtime answer stands; else null. */
  held(operation: GatewayOperation): UpstreamAnswer | null {
    const seen = this.seen;
    if (seen === null) return null;
    const now = this.now();
    if (now - seen.at >= DOWNTIME_RECHECK_MS || now < seen.at) return null;
    const what = seen.downtime === "release" ? "down for the monthly release" : "down for maintenance";
    const when = new Date(seen.at).toISOString().slice(0, 16).replace("T", " ");
    return {
      status: seen.status,
      body: JSON.stringify({
        message: `The service is ${what}: it answered the gateway HTTP ${seen.status} at ${when} UTC, and the gateway asks it again at most once a minute (this ${OPERATION_LABELS[operation]} call was not sent).`,
      }),
      contentType: "application/json; charset=utf-8",
      retryAfter: seen.retryAfter,
    };
  }
}
