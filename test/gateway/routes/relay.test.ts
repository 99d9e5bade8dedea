import Fastify from "fastify";
import { SERVICE_STATUS_HEADER } from "../../../src/core/http/service-status-header";
import { noDataCallAnswer, relay } from "../../../src/gateway/routes/relay";
import type { UpstreamAnswer } from "../../../src/gateway/upstream/upstream-client";

const refusal: UpstreamAnswer = {
  status: 503,
  body: JSON.stringify({
    message: "The service is failing: it answered the gateway's Series Values call HTTP 503.",
  }),
  contentType: "application/json; charset=utf-8",
  retryAfter: "60",
};

// A member's add-in reads a 503 in a window as the service's downtime only when the service
// answered it: the gateway says so for the service's refusals, never for failures of its own.
test.each<[string, UpstreamAnswer, string | undefined]>([
  ["the service's refusal names its status", { ...refusal, serviceStatus: 503 }, "503"],
  ["an answer of the gateway's own names none", refusal, undefined],
])("%s", async (_case, answer, header) => {
  const app = Fastify();
  app.get("/", (_request, reply) => relay(reply, answer));
  try {
    const response = await app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("60");
    expect(response.headers[SERVICE_STATUS_HEADER]).toBe(header);
    expect(response.body).toBe(answer.body);
  } finally {
    await app.close();
  }
});

// A request for which no data call left (the gateway's catalog read failed) is never answered
// 504, which members' add-ins take for a data call perhaps charged.
test.each<[number, number]>([
  [504, 502],
  [503, 503],
  [502, 502],
  [500, 500],
])("no data call left: the service's %d is passed on as %d", (status, passed) => {
  expect(noDataCallAnswer({ ...refusal, status }).status).toBe(passed);
});
