import type { ServiceState } from "../../../src/core/engine-api";
import { PcdError, type PcdErrorKind } from "../../../src/core/errors";
import { classifyHttpFailure, type FailureContext } from "../../../src/core/http/http-failure";
import type { Operation } from "../../../src/core/model";
import { serviceState } from "../../../src/core/schedule";
import { MAINTENANCE_TIME, QUIET_TIME } from "./fake-fetch";

const available: ServiceState = serviceState(QUIET_TIME, 3);
const formatTime = (epoch: number): string => new Date(epoch).toISOString();

function context(
  operation: Operation = "series_values",
  state = available,
  now = QUIET_TIME,
): FailureContext {
  return { operation, now, serviceState: state, formatTime };
}

describe("classifyHttpFailure: status x body -> kind", () => {
  test.each<[number, string, Operation, PcdErrorKind]>([
    [401, "", "series_values", "auth"],
    [401, '{"message":"Token expired"}', "series_info", "auth"],
    [403, '{"message":"Quota limit reached for Germany"}', "series_values", "quota"],
    [429, "Monthly quota exceeded", "series_values", "quota"],
    [400, '{"error":"quota limit reached"}', "series_hist", "quota"],
    [402, "QUOTA", "series_values", "quota"],
    [403, '{"detail":"Series Values History is not included in your plan"}', "series_hist", "plan"],
    [403, "Data Automation Option required", "series_values", "plan"],
    [403, "", "series_hist", "plan"],
    [403, "Forbidden", "series_values", "bad_request"],
    [429, "Too many requests", "series_values", "rate"],
    [429, "", "data_limits", "rate"],
    [503, "Service Unavailable", "series_values", "server"],
    [503, "Service unavailable for maintenance", "series_values", "unavailable"],
    [404, "Not Found", "series_info", "not_found"],
    [
      400,
      '{"message":"Codes of different subscription types cannot be mixed"}',
      "series_values",
      "bad_request",
    ],
    [422, "Unprocessable", "series_values", "bad_request"],
    [500, "Internal Server Error", "series_values", "server"],
    [501, "Not Implemented", "series_values", "server"],
    [502, "<html><body><h1>502 Bad Gateway</h1></body></html>", "series_values", "server"],
    // A gateway or relay that got no answer from the service: the call may have been charged.
    [504, "", "series_hist", "timeout"],
    [504, '{"message":"The service did not answer the gateway in time."}', "series_values", "timeout"],
    [504, "Gateway Timeout", "series_info", "timeout"],
  ])("%i %p on %s -> %s", (status, bodyText, operation, kind) => {
    const error = classifyHttpFailure({ status, bodyText, retryAfterMs: null }, context(operation));
    expect(error).toBeInstanceOf(PcdError);
    expect(error.kind).toBe(kind);
    expect(error.details.status).toBe(status);
  });

  test.each<[string, string, string | undefined]>([
    ["JSON message", '{"message":"Quota limit reached for dataset \\"Germany\\""}', "Germany"],
    ["quoted after 'dataset'", "quota exhausted: dataset 'Metals & Mining'", "Metals & Mining"],
    ["quoted before 'dataset'", 'The "Northwest Europe" dataset has no quota left', "Northwest Europe"],
    ["'for <Name>'", "Monthly quota limit reached for Germany.", "Germany"],
    ["'for <Two Words>' then a bracket", "Quota reached for South Korea (500/500)", "South Korea"],
    ["JSON dataset field", '{"error":"quota reached","dataset":"Spain"}', "Spain"],
    ["no dataset named", "The quota limit is reached", undefined],
    ["'for this dataset'", "quota limit reached for this dataset", undefined],
  ])("quota dataset from %s", (_name, bodyText, dataset) => {
    const error = classifyHttpFailure({ status: 403, bodyText, retryAfterMs: null }, context());
    expect(error.kind).toBe("quota");
    expect(error.details.dataset).toBe(dataset);
    if (dataset) expect(error.message).toContain(`dataset "${dataset}"`);
  });

  test("a team gateway's refusal for the member's budget is a quota error in the gateway's own words", () => {
    const said =
      "Quota limit reached for member ana@team.example: until 2026-12-03 the gateway's budget of 100 data requests " +
      "for dataset 'Germany' has 3 left; this request needs 5. Ask the gateway's administrator to raise the budget.";
    const error = classifyHttpFailure(
      { status: 403, bodyText: JSON.stringify({ message: said }), retryAfterMs: null },
      context(),
    );
    expect(error.kind).toBe("quota");
    expect(error.message).toBe(said);
    expect(error.details).toEqual({
      status: 403,
      serverMessage: said,
      dataset: "Germany",
      memberBudget: true,
    });
  });

  test("the service's own quota refusal is not a member's budget", () => {
    const error = classifyHttpFailure(
      { status: 403, bodyText: '{"message":"Quota limit reached for Germany"}', retryAfterMs: null },
      context(),
    );
    expect(error.details.memberBudget).toBeUndefined();
    expect(error.message).toContain("The service said: Quota limit reached for Germany");
  });

  test.each<[string, string]>([
    ['{"message":"Bad codes"}', "Bad codes"],
    ['{"error":"Bad codes"}', "Bad codes"],
    ['{"error":{"message":"Bad codes"}}', "Bad codes"],
    ['{"detail":"Bad codes"}', "Bad codes"],
    ['{"detail":[{"msg":"Bad"},{"msg":"codes"}]}', "Bad; codes"],
    ['"Bad codes"', "Bad codes"],
    ["Bad   codes\n", "Bad codes"],
    ["<html><p>Bad codes</p></html>", "Bad codes"],
  ])("keeps the server's words from %s", (bodyText, serverMessage) => {
    const error = classifyHttpFailure({ status: 400, bodyText, retryAfterMs: null }, context());
    expect(error.details.serverMessage).toBe(serverMessage);
    expect(error.message).toContain(`The service said: ${serverMessage}`);
    expect(error.message).toContain("Series Values");
    expect(error.message).toContain("HTTP 400");
  });

  test("a body without words adds no 'The service said'", () => {
    const error = classifyHttpFailure({ status: 500, bodyText: "{}", retryAfterMs: null }, context());
    expect(error.details.serverMessage).toBeUndefined();
    expect(error.message).toBe("The service is failing: it answered HTTP 500 to Series Values.");
  });

  test("never repeats a token the server echoed", () => {
    const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLXRleHQ";
    const error = classifyHttpFailure(
      { status: 401, bodyText: `{"message":"Invalid token ${token} (Bearer ${token})"}`, retryAfterMs: null },
      { ...context(), secrets: [token] },
    );
    expect(error.message).not.toContain(token);
    expect(error.details.serverMessage).not.toContain(token);
    expect(error.message).toContain("[redacted]");
  });

  test("a 503 in the maintenance window names 22:00 Central and the local time", () => {
    const state = serviceState(MAINTENANCE_TIME, 3);
    const error = classifyHttpFailure(
      { status: 503, bodyText: "Maintenance", retryAfterMs: null },
      context("series_values", state, MAINTENANCE_TIME),
    );
    expect(error.kind).toBe("unavailable");
    expect(error.details.until).toBe(Date.parse("2026-11-16T04:00:00Z"));
    expect(error.details.downtime).toBe("maintenance");
    expect(error.message).toMatch(
      /^The service is down for maintenance until 22:00 US Central Time \(2026-11-16T04:00:00.000Z your time\)/,
    );
  });

  test("a 503 on release day says 'at the latest'", () => {
    const now = Date.parse("2026-11-04T15:00:00Z");
    const error = classifyHttpFailure(
      { status: 503, bodyText: "", retryAfterMs: null },
      context("series_info", serviceState(now, 3), now),
    );
    expect(error.message).toMatch(/for the monthly data release until 22:00 US Central Time at the latest/);
    // Named as the release wherever the pane tells it (a sign-in refused then included).
    expect(error.details.downtime).toBe("release");
  });

  test("a 503 outside the windows is a server fault that keeps its Retry-After", () => {
    const error = classifyHttpFailure({ status: 503, bodyText: "", retryAfterMs: 120_000 }, context());
    expect(error.kind).toBe("server");
    expect(error.details.until).toBeUndefined();
    expect(error.details.retryAfterMs).toBe(120_000);
    // An outage of unknown cause: neither a maintenance nor the release, whatever the wait.
    expect(error.message).toBe(
      "The service is failing: it answered HTTP 503 (service unavailable) to Series Values.",
    );
  });

  test("a 503 whose text says maintenance, outside the windows, is the maintenance the service announced", () => {
    const error = classifyHttpFailure(
      { status: 503, bodyText: '{"message":"Service under maintenance"}', retryAfterMs: 3_600_000 },
      context(),
    );
    expect(error.kind).toBe("unavailable");
    expect(error.details.until).toBe(QUIET_TIME + 3_600_000);
    expect(error.details.downtime).toBe("announced");
    expect(error.message).toMatch(
      /^The service announced a maintenance until about .* \(your time\) \(HTTP 503 to Series Values\)\. The service said: Service under maintenance$/,
    );
  });

  test("a 503 while a maintenance the service announced is on (a team gateway's calls still go) names that maintenance's end, not 22:00 US Central Time", () => {
    const until = QUIET_TIME + 3_600_000;
    const announced: ServiceState = {
      ...available,
      available: false,
      reason: "maintenance",
      until,
      reachability: {
        unreachableSince: null,
        reason: "The service announced a maintenance",
        maintenanceUntil: until,
        lastAnswerAt: null,
        failingStatus: null,
      },
    };
    const error = classifyHttpFailure(
      { status: 503, bodyText: '{"message":"Service under maintenance"}', retryAfterMs: 3_500_000 },
      { ...context("data_limits", announced), throughGateway: true },
    );
    expect(error.kind).toBe("unavailable");
    expect(error.details.downtime).toBe("announced");
    expect(error.message).not.toMatch(/22:00/);
    expect(error.message).toBe(
      `The service announced a maintenance until about ${formatTime(until)} (your time) (HTTP 503 to Data Limits). The service said: Service under maintenance`,
    );
  });

  test("a 503 in a window never says cached data stands in (the caller may have none)", () => {
    const state = serviceState(MAINTENANCE_TIME, 3);
    const error = classifyHttpFailure(
      { status: 503, bodyText: "", retryAfterMs: null },
      context("series_values", state, MAINTENANCE_TIME),
    );
    expect(error.message).not.toMatch(/cached/i);
  });
});

// In a window of the calendar a 503 is the window's, directly: the service says little then.
// Through a team gateway, which answers from what it keeps meanwhile, only the service's 503 is
// (in its words, or passed on with pcd-service-status); any other is the gateway's own failure
// or its front end's, an outage.
// Through a team gateway a 403 the gateway answers itself (no pcd-service-status) refuses the
// member; one of the service's it passes on keeps the service's meaning (the plan's History).
describe("a 403 through a team gateway", () => {
  const BLOCKED = JSON.stringify({
    message: "Member ana@team.example is blocked at this gateway: ask the gateway's administrator.",
  });
  const PLAN = JSON.stringify({
    message:
      "The service refused the gateway's Series Values History call (HTTP 403): the subscription's plan does not include it.",
  });
  test.each<[string, Operation, string, boolean, number | null, PcdErrorKind, RegExp]>([
    [
      "the gateway's own, on History",
      "series_hist",
      BLOCKED,
      true,
      null,
      "auth",
      /^Your team's gateway refused .*\(HTTP 403\)\. It said: Member ana@team\.example is blocked/,
    ],
    [
      "the gateway's own, on Series Values",
      "series_values",
      BLOCKED,
      true,
      null,
      "auth",
      /^Your team's gateway refused/,
    ],
    [
      "the service's, passed on, on History",
      "series_hist",
      PLAN,
      true,
      403,
      "plan",
      /^Your plan does not include/,
    ],
    [
      "the service itself, on History",
      "series_hist",
      PLAN,
      false,
      null,
      "plan",
      /^Your plan does not include/,
    ],
  ])("%s", (_case, operation, bodyText, throughGateway, serviceStatus, kind, message) => {
    const error = classifyHttpFailure(
      { status: 403, bodyText, retryAfterMs: null, serviceStatus },
      { ...context(operation), throughGateway },
    );
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
  });
});

describe("a 503 in the calendar's maintenance window", () => {
  const inWindow = serviceState(MAINTENANCE_TIME, 3);
  test.each<[string, string, boolean, number | null, PcdErrorKind, boolean]>([
    // case, body, through a gateway, the service's status the gateway names, kind, remembered until the window's end
    ["directly, with no words", "Service Unavailable", false, null, "unavailable", true],
    [
      "directly, in the service's words",
      "Service unavailable for maintenance",
      false,
      null,
      "unavailable",
      true,
    ],
    [
      "through a gateway, in the service's words",
      '{"message":"The service is down for maintenance: it answered the gateway\'s Series Values call HTTP 503."}',
      true,
      503,
      "unavailable",
      true,
    ],
    [
      "through a gateway, the service's 503 without words, passed on",
      '{"message":"The service is failing: it answered the gateway\'s Series Values call HTTP 503."}',
      true,
      503,
      "unavailable",
      true,
    ],
    [
      "through a gateway, in words of its own",
      '{"message":"Organisation sign-in is unavailable: the issuer\'s keys could not be read."}',
      true,
      null,
      "server",
      false,
    ],
    ["through a gateway, from a front end with no words", "", true, null, "server", false],
  ])("%s", (_case, body, throughGateway, passedOn, kind, untilWindowEnd) => {
    const error = classifyHttpFailure(
      { status: 503, bodyText: body, retryAfterMs: null, serviceStatus: passedOn },
      { ...context("series_values", inWindow, MAINTENANCE_TIME), throughGateway },
    );
    expect(error.kind).toBe(kind);
    expect(error.details.until === inWindow.until).toBe(untilWindowEnd);
  });
});
