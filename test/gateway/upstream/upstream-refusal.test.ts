// The gateway's words for a call the service refused: the status and Retry-After kept, the kind
// of refusal kept in the words the add-in reads, and none of the service's text passed on.
import { classifyHttpFailure } from "../../../src/core/http/http-failure";
import type { ServiceState } from "../../../src/core/engine-api";
import type { GatewayOperation } from "../../../src/gateway/gateway-operation";
import type { UpstreamAnswer } from "../../../src/gateway/upstream/upstream-client";
import {
  downtimeIn,
  refusalInOwnWords,
  safeRetryAfter,
} from "../../../src/gateway/upstream/upstream-refusal";

const ACCOUNT = { username: "Dev.Account@corp.example", password: 'Tr0ub"dor' };
const TOKEN = "upstream-token-abc";

const refused = (status: number, message: string, retryAfter: string | null = null): UpstreamAnswer => ({
  status,
  body: JSON.stringify({ message }),
  contentType: "application/json",
  retryAfter,
});

/** The service outside any calendar window: only its own words can make a maintenance. */
const AVAILABLE: ServiceState = {
  available: true,
  reason: null,
  until: null,
  nextRelease: Date.parse("2026-12-09T12:00:00Z"),
  nextMaintenance: Date.parse("2026-12-15T12:00:00Z"),
};

test.each<[string, UpstreamAnswer, GatewayOperation, string[], number, string, string | undefined, string]>([
  [
    "a dataset's allowance used up, named by the service",
    refused(403, "Quota limit reached for dataset 'Germany': 500 of 500 monthly data requests used"),
    "series_values",
    ["France", "Germany"],
    403,
    "Quota limit reached for dataset 'Germany': the service refused the gateway's Series Values call (HTTP 403).",
    "Germany",
    "quota",
  ],
  [
    "the daily quota (no dataset of the call named)",
    refused(429, "Quota limit reached: daily quota of 8000 requests used for 2026-11-10"),
    "series_hist",
    ["Germany"],
    429,
    "Quota limit reached: the service refused the gateway's Series Values History call (HTTP 429).",
    undefined,
    "quota",
  ],
  [
    "History outside the plan",
    refused(403, "Your subscription does not include the Data Automation Option"),
    "series_hist",
    [],
    403,
    "The service refused the gateway's Series Values History call (HTTP 403): the subscription's plan does not include it.",
    undefined,
    "plan",
  ],
  [
    "the rate",
    refused(429, "Too many requests", "2"),
    "series_values",
    [],
    429,
    "The service is limiting the gateway's Series Values calls (HTTP 429): try again shortly.",
    undefined,
    "rate",
  ],
  [
    "a maintenance the service announces",
    refused(503, "Scheduled maintenance until 22:00 CT", "600"),
    "data_limits",
    [],
    503,
    "The service is down for maintenance: it answered the gateway's Data Limits call HTTP 503.",
    undefined,
    "unavailable",
  ],
  [
    "the monthly release",
    refused(503, "The monthly release is being published"),
    "series_info",
    [],
    503,
    "The service is down for the monthly release: it answered the gateway's Series Info call HTTP 503.",
    undefined,
    "unavailable",
  ],
  [
    "a failure",
    refused(500, `stack trace for ${ACCOUNT.username}`),
    "series_values",
    [],
    500,
    "The service is failing: it answered the gateway's Series Values call HTTP 500.",
    undefined,
    "server",
  ],
  [
    "the gateway's token refused after its renewal",
    refused(401, `Invalid access token ${TOKEN}`),
    "series_values",
    [],
    502,
    "The service refused the gateway's token (HTTP 401) for a Series Values call: tell the gateway's administrator.",
    undefined,
    "server",
  ],
  [
    "the gateway's token refused, whatever the text says",
    refused(401, "Quota limit reached for dataset 'Germany'"),
    "series_values",
    ["Germany"],
    502,
    "The service refused the gateway's token (HTTP 401) for a Series Values call: tell the gateway's administrator.",
    undefined,
    "server",
  ],
  [
    "an unknown address",
    refused(404, "Not found"),
    "series_info",
    [],
    404,
    "The service found nothing at the address of the gateway's Series Info call (HTTP 404).",
    undefined,
    "not_found",
  ],
  [
    "a bad request repeating a member's words",
    refused(400, `Malformed code '1-1-1|${ACCOUNT.password}'`),
    "series_values",
    [],
    400,
    "The service refused the gateway's Series Values call (HTTP 400).",
    undefined,
    "bad_request",
  ],
])("%s", (_case, answer, operation, datasets, status, message, dataset, kind) => {
  const own = refusalInOwnWords(answer, operation, datasets);
  expect(own.status).toBe(status);
  expect(JSON.parse(own.body)).toEqual(dataset === undefined ? { message } : { message, dataset });
  expect(own.contentType).toBe("application/json; charset=utf-8");
  expect(own.retryAfter).toBe(status === 502 ? null : answer.retryAfter);
  // Members' add-ins learn the service answered it (a 503 in a window is its downtime then).
  expect(own.serviceStatus).toBe(answer.status);
  // The add-in reads the gateway's words as the kind of refusal the service's were.
  const error = classifyHttpFailure(
    { status: own.status, bodyText: own.body, retryAfterMs: null },
    { operation, now: Date.parse("2026-11-10T16:00:00Z"), serviceState: AVAILABLE },
  );
  expect(error.kind).toBe(kind);
  if (dataset !== undefined) expect(error.details.dataset).toBe(dataset);
});

test.each<[string, string, string[], string | undefined]>([
  [
    "named in the message",
    JSON.stringify({ message: "Quota limit reached for dataset 'Germany'" }),
    ["Germany"],
    "Germany",
  ],
  [
    "named with escapes undone",
    JSON.stringify({ message: 'Quota limit reached for dataset "Metals & Mining"' }).replace("&", "\\u0026"),
    ["Metals & Mining"],
    "Metals & Mining",
  ],
  [
    "in the answer's dataset field",
    JSON.stringify({ message: "Quota reached", dataset: "france" }),
    ["France"],
    "France",
  ],
  [
    "one the call does not hold",
    JSON.stringify({ message: "Quota limit reached for dataset 'Spain'" }),
    ["Germany"],
    undefined,
  ],
  [
    "a call's dataset in another role",
    JSON.stringify({ message: "Daily quota used up; Germany's requests were counted" }),
    ["Germany"],
    undefined,
  ],
  ["plain text", "Quota limit reached for dataset 'Germany': 500 of 500", ["Germany"], "Germany"],
])("a quota refusal names the dataset %s", (_case, body, datasets, expected) => {
  const own = refusalInOwnWords({ ...refused(403, ""), body }, "series_values", datasets);
  expect((JSON.parse(own.body) as { dataset?: string }).dataset).toBe(expected);
});

test.each<[string, UpstreamAnswer, string[], UpstreamAnswer["refusal"]]>([
  [
    "a quota naming a dataset of the call",
    refused(403, "Quota limit reached for dataset 'France': 500 of 500 monthly data requests used"),
    ["Germany", "France"],
    { kind: "quota", dataset: "France" },
  ],
  [
    "a quota naming a dataset the call does not hold",
    refused(403, "Quota limit reached for dataset 'Spain': 500 of 500 monthly data requests used"),
    ["Germany"],
    { kind: "quota", dataset: null },
  ],
  [
    "a call mixing data types",
    refused(
      400,
      "A call may contain codes of one data type only; this call mixes utilities prices and costs and cost indexes",
    ),
    ["Germany"],
    { kind: "bad request" },
  ],
  ["a 403 of no kind it names, for Series Values", refused(403, "Forbidden"), [], { kind: "bad request" }],
  ["an unknown address", refused(404, "Not found"), [], undefined],
  ["the rate", refused(429, "Too many requests"), [], undefined],
  ["a failure", refused(500, "Internal error"), [], undefined],
])("what the queue splits a call by: %s", (_case, answer, datasets, refusal) => {
  expect(refusalInOwnWords(answer, "series_values", datasets).refusal).toEqual(refusal);
});

test("no part of the service's text reaches members: the account in any spelling, the token, or a member's guess", () => {
  const spellings = [
    ACCOUNT.username.toUpperCase(),
    JSON.stringify(ACCOUNT.password).slice(1, -1),
    encodeURIComponent(ACCOUNT.password),
    TOKEN,
  ];
  for (const status of [400, 403, 404, 429, 500, 503]) {
    for (const spelling of spellings) {
      const own = refusalInOwnWords(refused(status, `Refused for ${spelling}`), "series_values");
      expect(own.body).not.toContain(spelling);
    }
    // A member who makes the service repeat a guess learns nothing from the answer.
    const right = refusalInOwnWords(refused(status, `Malformed code '${ACCOUNT.password}'`), "series_values");
    const wrong = refusalInOwnWords(refused(status, "Malformed code 'Summer2025'"), "series_values");
    expect(right).toEqual(wrong);
  }
});

test.each<[string, string | null, string | null]>([
  ["seconds", "120", "120"],
  ["an HTTP date", "Wed, 11 Nov 2026 04:00:00 GMT", "Wed, 11 Nov 2026 04:00:00 GMT"],
  ["absent", null, null],
  ["anything else", `120 ${ACCOUNT.username}`, null],
])("safeRetryAfter keeps %s only as the header holds it", (_case, value, expected) => {
  expect(safeRetryAfter(value)).toBe(expected);
});

test.each<[string, ReturnType<typeof downtimeIn>]>([
  ["Scheduled maintenance until 22:00 CT", "maintenance"],
  ["Planned downtime", "maintenance"],
  ["The monthly release is being published", "release"],
  ["Internal error", null],
])("downtimeIn(%j)", (text, expected) => {
  expect(downtimeIn(text)).toBe(expected);
});
