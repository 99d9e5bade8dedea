// What members get when the service refused one of the gateway's calls: the status, the
// service's Retry-After when it is a delay or a date, and a sentence in the gateway's own words.
// None of the service's text is passed on. It may repeat the Developer account in a spelling no
// replacement can know (another case, JSON escapes) or the gateway's token; and replacing the
// account where it appears would itself tell a member who can make the service repeat words of
// theirs whether a guess was the password. The service's text is read only for the kind of
// refusal (docs/service.md §7), and the sentence keeps the words the add-in reads it by: "quota"
// (with a dataset the gateway knows), "plan", "maintenance", "monthly release".
import { OPERATION_LABELS } from "../../core/http/classify";
import { datasetFromJson, datasetFromText, extractServerMessage } from "../../core/http/error-body";
import type { GatewayOperation } from "../gateway-operation";
import type { UpstreamAnswer } from "./upstream-client";

export type Downtime = "release" | "maintenance";

const RELEASE_WORDS = /monthly release/i;
const MAINTENANCE_WORDS = /maintenance|downtime/i;
const QUOTA_WORDS = /quota/i;
const PLAN_WORDS = /histor|\bplan\b|option|not included|subscription/i;
const SECONDS = /^\d{1,9}$/;
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The dataset a quota refusal names, when it is one of the call's: the answer's dataset field,
 * or the name its message gives (read as the add-in reads them: core/http/error-body.ts).
 */
function namedDataset(body: string, datasets: readonly string[]): string | undefined {
  const named = [datasetFromJson(body), datasetFromText(extractServerMessage(body) ?? "")];
  for (const name of named) {
    if (name === null) continue;
    const known = datasets.find((dataset) => dataset.toLowerCase() === name.toLowerCase());
    if (known !== undefined) return known;
  }
  return undefined;
}

/** The downtime the service's words name (docs/service.md §8.3), if any. */
export function downtimeIn(text: string): Downtime | null {
  if (RELEASE_WORDS.test(text)) return "release";
  return MAINTENANCE_WORDS.test(text) ? "maintenance" : null;
}

/** The service's Retry-After when it is what the header holds (seconds or an HTTP date), else none. */
export function safeRetryAfter(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  return SECONDS.test(trimmed) || HTTP_DATE.test(trimmed) ? trimmed : null;
}

/**
 * How long a refusal the gateway tells again instead of asking stands: `atLeastMs`, or longer
 * when the service's Retry-After (in seconds) asks for more, up to `atMostMs` (a Retry-After of
 * days would hold the team for them).
 */
export function standsFor(retryAfter: string | null, atLeastMs: number, atMostMs = 15 * 60_000): number {
  const asked = retryAfter !== null && SECONDS.test(retryAfter) ? Number(retryAfter) * 1000 : 0;
  return Math.max(atLeastMs, Math.min(asked, atMostMs));
}

/**
 * A Retry-After given `elapsedMs` ago, as it stands now: a delay in seconds counts down (to no
 * less than `atLeastSeconds`); a date, or nothing, stays as it was.
 */
export function retryAfterNow(
  retryAfter: string | null,
  elapsedMs: number,
  atLeastSeconds = 0,
): string | null {
  if (retryAfter === null || !SECONDS.test(retryAfter)) return retryAfter;
  const left = Number(retryAfter) - Math.floor(Math.max(0, elapsedMs) / 1000);
  return String(Math.max(left, atLeastSeconds));
}

/**
 * The gateway's answer for a refused call (a status outside 2xx) of an operation; `datasets`
 * are those of the call's codes in the gateway's catalog, the only dataset names a quota
 * refusal may name.
 */
export function refusalInOwnWords(
  refused: UpstreamAnswer,
  operation: GatewayOperation,
  datasets: readonly string[] = [],
): UpstreamAnswer {
  const { status, body } = refused;
  const call = `the gateway's ${OPERATION_LABELS[operation]} call`;
  const own = (
    answerStatus: number,
    message: string,
    extra: Record<string, string> = {},
  ): UpstreamAnswer => ({
    status: answerStatus,
    body: JSON.stringify({ message, ...extra }),
    contentType: "application/json; charset=utf-8",
    retryAfter: safeRetryAfter(refused.retryAfter),
    // Members' add-ins tell the service's refusal from the gateway's own failure by it.
    serviceStatus: status,
  });
  if (status === 401) {
    // The gateway renewed its token once already: its account is the administrator's to look at,
    // and a 401 would have members sign in again to no end.
    return {
      ...own(
        502,
        `The service refused the gateway's token (HTTP 401) for a ${OPERATION_LABELS[operation]} call: tell the gateway's administrator.`,
      ),
      retryAfter: null,
    };
  }
  if (QUOTA_WORDS.test(body)) {
    const dataset = namedDataset(body, datasets);
    const which = dataset === undefined ? "" : ` for dataset '${dataset}'`;
    return {
      ...own(
        status,
        `Quota limit reached${which}: the service refused ${call} (HTTP ${status}).`,
        dataset === undefined ? {} : { dataset },
      ),
      refusal: { kind: "quota", dataset: dataset ?? null },
    };
  }
  if (status === 403 && (PLAN_WORDS.test(body) || operation === "series_hist")) {
    return own(403, `The service refused ${call} (HTTP 403): the subscription's plan does not include it.`);
  }
  if (status === 429) return own(429, `The service is limiting ${call}s (HTTP 429): try again shortly.`);
  if (status === 404) return own(404, `The service found nothing at the address of ${call} (HTTP 404).`);
  if (status >= 500) {
    const downtime = downtimeIn(body);
    if (downtime === "release") {
      return own(status, `The service is down for the monthly release: it answered ${call} HTTP ${status}.`);
    }
    if (downtime === "maintenance") {
      return own(status, `The service is down for maintenance: it answered ${call} HTTP ${status}.`);
    }
    return own(status, `The service is failing: it answered ${call} HTTP ${status}.`);
  }
  const answer = own(status, `The service refused ${call} (HTTP ${status}).`);
  return status >= 400 && status < 500 ? { ...answer, refusal: { kind: "bad request" } } : answer;
}
