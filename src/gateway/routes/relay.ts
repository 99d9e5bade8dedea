// Answers a member with what the upstream answered: its status, body and Retry-After, and for a
// refusal of the service's, the status the service answered (pcd-service-status).
import type { FastifyReply } from "fastify";
import { SERVICE_STATUS_HEADER } from "../../core/http/service-status-header";
import type { UpstreamAnswer } from "../upstream/upstream-client";

export function relay(reply: FastifyReply, answer: UpstreamAnswer): FastifyReply {
  reply.code(answer.status);
  if (answer.retryAfter !== null) reply.header("retry-after", answer.retryAfter);
  if (answer.serviceStatus !== undefined) reply.header(SERVICE_STATUS_HEADER, String(answer.serviceStatus));
  reply.type(answer.contentType ?? "application/json; charset=utf-8");
  return reply.send(answer.body);
}

/** The service's own error shape (docs/service.md §7): {"message": "..."}. */
export function sendMessage(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type("application/json; charset=utf-8").send({ message });
}

/**
 * An answer to a request for which no call that charges data requests left (the gateway's
 * catalog read failed, a Data Limits or sandbox call): a 504 of the service's becomes a 502, as
 * members' add-ins take a 504 for a data call that got no answer in time and may have been charged.
 */
export function noDataCallAnswer(answer: UpstreamAnswer): UpstreamAnswer {
  return answer.status === 504 ? { ...answer, status: 502 } : answer;
}
