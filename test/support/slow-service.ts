// A service client against an adversarial service on a fake clock: each answer takes as
// long as the script says (the clock advances by it), the waits between retries advance
// the clock, and a token renewal takes the whole call timeout. Measures, without real
// time, how long a call can keep trying before it ends.
import type { EngineSettings } from "../../src/core/engine-api";
import { createServiceClient, type TokenSource } from "../../src/core/http/service-client-impl";
import { FakeClock, QUIET_TIME, scriptedFetch, settingsWith, type Responder } from "../core/http/fake-fetch";

export type CallName = "seriesInfo" | "seriesHistory" | "seriesValues";

/** An answer after `ms` of (fake) time: HTTP `status`, with a Retry-After in seconds if given. */
export function after(clock: FakeClock, ms: number, status: number, retryAfterSeconds?: number): Responder {
  return async () => {
    clock.advance(ms);
    const headers: Record<string, string> =
      retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) };
    return new Response(`{"message":"HTTP ${status}"}`, { status, headers });
  };
}

export interface SlowCallOutcome {
  elapsedMs: number;
  attempts: number;
}

/** Runs one call against the scripted answers and reports how long it took on the fake clock. */
export async function timeSlowCall(
  call: CallName,
  script: (clock: FakeClock, timeoutMs: number) => Responder[],
  patch: Partial<EngineSettings> = {},
): Promise<SlowCallOutcome> {
  const settings = settingsWith(patch);
  const clock = new FakeClock(QUIET_TIME);
  const timeoutMs = call === "seriesHistory" ? settings.historyTimeoutMs : settings.callTimeoutMs;
  const { fetch, requests } = scriptedFetch(...script(clock, timeoutMs));
  let token = "header.payload-1.signature";
  const auth: TokenSource = {
    token: async () => token,
    renew: async () => {
      clock.advance(settings.callTimeoutMs);
      token = "header.payload-2.signature";
      return token;
    },
  };
  const client = createServiceClient({
    fetch,
    clock,
    auth,
    settings: () => settings,
    requestsPerSecond: 1000,
    sleep: async (ms) => clock.advance(ms),
    random: () => 1 - 1e-9,
  });
  const code = [{ code: "68520-8-1", currencyId: null, unitId: null }];
  const started = clock.now();
  const running =
    call === "seriesInfo"
      ? client.seriesInfo("live", "energy_price")
      : call === "seriesHistory"
        ? client.seriesHistory("live", "energy_price", code)
        : client.seriesValues("live", "energy_price", code);
  await running.then(
    () => {
      throw new Error("the scripted service never answers with data");
    },
    () => undefined,
  );
  return { elapsedMs: clock.now() - started, attempts: requests.length };
}

/**
 * The slowest ways a service can keep a call trying: every answer comes just before the
 * timeout with the longest Retry-After honoured; quick refusals that use up the retry
 * window and then a slow answer; quick failures with the longest backoffs, then a slow one.
 */
export const SLOW_SCRIPTS: Record<string, (clock: FakeClock, timeoutMs: number) => Responder[]> = {
  "every attempt 503 just before its timeout, Retry-After 60 s": (clock, t) => [after(clock, t - 1, 503, 60)],
  "quick 503 with Retry-After 59 s, then slow 503s": (clock, t) => [
    after(clock, 0, 503, 59),
    after(clock, t - 1, 503, 1),
  ],
  "quick 500s with backoff, then slow 502s": (clock, t) => [
    after(clock, 0, 500),
    after(clock, 0, 500),
    after(clock, 0, 500),
    after(clock, t - 1, 502),
  ],
};

/** The same, with the last attempt in the window refused with 401 (a token renewal, one more slow attempt). */
export const SLOW_SCRIPTS_WITH_RENEWAL: Record<string, (clock: FakeClock, timeoutMs: number) => Responder[]> =
  {
    "quick 503 with Retry-After 59 s, a slow 401, then slow 503s": (clock, t) => [
      after(clock, 0, 503, 59),
      after(clock, t - 1, 401),
      after(clock, t - 1, 503, 60),
    ],
  };
