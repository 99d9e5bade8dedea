// The sign-in limiter's counts (@fastify/rate-limit's store) in the gateway's database, shared
// by every instance on it (store/sql-attempt-counts.ts), on the gateway's clock.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { AttemptCounts } from "../store/gateway-store";

/** What the limiter answers when the database cannot count: the cause, without the database's text. */
export const NOT_COUNTED = "The gateway's database could not count this sign-in attempt: try again shortly.";

export function sharedSignInLimitStore(
  counts: Pick<AttemptCounts, "count">,
  now: () => number,
): FastifyRateLimitStoreCtor {
  return class SharedSignInLimitStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const at = now();
      counts.count(key, timeWindow, new Date(at)).then(
        ({ attempts, windowEnds }) =>
          callback(null, { current: attempts, ttl: Math.max(0, windowEnds.getTime() - at) }),
        () => callback(new Error(NOT_COUNTED)),
      );
    }

    /** One table of counts for every route (there is one). */
    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
