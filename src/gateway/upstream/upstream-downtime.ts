// While the service says it is down (maintenance, release day: docs/service.md §8.3), the
// gateway asks it again at most once a minute, whoever asks the gateway meanwhile. Downtime lasts
// hours, and every call made then could only fail while counting against the team's daily quota
// of 8,000 calls and its rate of 10 a second: members' scripts, their cells retrying and a
// catalog due for a read would otherwise each send their own. What the members get meanwhile is
// the service's refusal as it was, told in the gateway's words with when it was received.
//
// One call is sent once the minute is over (the probe); the others keep getting the refusal until
// its answer comes. Only an answer to a call sent after the refusal ends the wait: an answer to
// an earlier call that comes late says nothing of the service now.
import { OPERATION_LABELS } from "../../core/http/classify";
import type { GatewayOperation } from "../gateway-operation";
import type { UpstreamAnswer } from "./upstream-client";
import { downtimeIn, retryAfterNow, safeRetryAfter, type Downtime } from "./upstream-refusal";

/** How long a downtime answer stands for every call of the gateway's. */
export const DOWNTIME_RECHECK_MS = 60_000;

interface Seen {
  downtime: Downtime;
  status: number;
  retryAfter: string | null;
  at: number;
}

/** A call about to be sent: when, and whether it is the probe. */
export interface Ticket {
  sentAt: number;
  probe: symbol | null;
}

export class UpstreamDowntime {
  private seen: Seen | null = null;
  /** The minute is over, and the call with this mark is on its way to learn whether the service is back. */
  private probe: symbol | null = null;

  constructor(private readonly now: () => number) {}

  /** The answer a call gets unsent now (the refusal stands, or a probe is on its way); else null. */
  held(operation: GatewayOperation): UpstreamAnswer | null {
    const seen = this.seen;
    if (seen === null) return null;
    const now = this.now();
    // A clock set back ends the wait: nothing should stay held on a reading from the future.
    const within = now >= seen.at && now - seen.at < DOWNTIME_RECHECK_MS;
    return within || this.probe !== null ? this.answer(seen, operation, now) : null;
  }

  /**
   * Right before a call is sent: the answer it gets instead, or its ticket to send it (give the
   * ticket to answered or unanswered). Once the minute is over the first call to come is sent as
   * the probe, and the rest are held until it answers.
   */
  beforeSend(operation: GatewayOperation): { held: UpstreamAnswer } | { ticket: Ticket } {
    const held = this.held(operation);
    if (held !== null) return { held };
    const ticket: Ticket = { sentAt: this.now(), probe: this.seen !== null ? Symbol("probe") : null };
    if (ticket.probe !== null) this.probe = ticket.probe;
    return { ticket };
  }

  /**
   * What the service answered a call (its own status and text, before the gateway rewords it).
   * Only a call sent since the refusal counts (an earlier one's answer that comes late says
   * nothing of the service now): a 5xx naming a downtime starts the wait again, an answer below
   * 500 ends it, and a 5xx naming no downtime ends neither.
   */
  answered(answer: Pick<UpstreamAnswer, "status" | "body" | "retryAfter">, ticket: Ticket): void {
    this.release(ticket);
    if (this.seen !== null && ticket.sentAt < this.seen.at) return;
    const downtime = answer.status >= 500 ? downtimeIn(answer.body) : null;
    if (downtime !== null) {
      this.seen = {
        downtime,
        status: answer.status,
        retryAfter: safeRetryAfter(answer.retryAfter),
        at: this.now(),
      };
    } else if (answer.status < 500) {
      this.seen = null;
    }
  }

  /** A call got no answer (network, timeout, or it failed leaving): if it was the probe, another may go. */
  unanswered(ticket: Ticket): void {
    this.release(ticket);
  }

  private release(ticket: Ticket): void {
    if (ticket.probe !== null && this.probe === ticket.probe) this.probe = null;
  }

  private answer(seen: Seen, operation: GatewayOperation, now: number): UpstreamAnswer {
    const what = seen.downtime === "release" ? "down for the monthly release" : "down for maintenance";
    const when = new Date(seen.at).toISOString().slice(0, 16).replace("T", " ");
    return {
      status: seen.status,
      body: JSON.stringify({
        message: `The service is ${what}: it answered the gateway HTTP ${seen.status} at ${when} UTC, and the gateway asks it again at most once a minute (this ${OPERATION_LABELS[operation]} call was not sent).`,
      }),
      contentType: "application/json; charset=utf-8",
      retryAfter: this.retryAfter(seen, now),
      heldSince: seen.at,
    };
  }

  /**
   * The service's Retry-After as it stands now: a delay counts down from when it was given, and
   * is never shorter than the rest of the gateway's own wait (a date stays as it was).
   */
  private retryAfter(seen: Seen, now: number): string | null {
    const elapsed = Math.max(0, now - seen.at);
    const waitLeft = Math.ceil(Math.max(0, DOWNTIME_RECHECK_MS - elapsed) / 1000);
    return retryAfterNow(seen.retryAfter, elapsed, Math.max(waitLeft, 1));
  }
}
