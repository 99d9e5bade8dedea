// Error answers (docs/decisions.md D25): {"message": "..."} JSON by default, text/plain with
// --error-format text, and Retry-After (seconds) on 429 and 503.
import type { FastifyReply } from "fastify";
import type { ErrorFormat } from "./options";

export function sendError(
  reply: FastifyReply,
  format: ErrorFormat,
  status: number,
  message: string,
  retryAfterSeconds?: number,
): FastifyReply {
  reply.code(status);
  if (retryAfterSeconds !== undefined) reply.header("Retry-After", String(retryAfterSeconds));
  if (format === "text") return reply.type("text/plain; charset=utf-8").send(message);
  return reply.type("application/json; charset=utf-8").send({ message });
}
