// What every service operation goes through before its own work, in the order a
// gateway would apply it: injected faults, downtime, the per-operation rate limit, and
// (except for the token operation) the bearer token. Releases the clock has passed are
// applied first, so quotas reset at the right moment.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorState } from "./emulator-state";
import type { Operation } from "./operations";
import { downtimeAt } from "./schedule";
import { ServiceError } from "./service-error";
import { waitWhileClientWaits } from "./client-wait";

/** Statuses that tell the client when to come back. */
const RETRYABLE_STATUSES = new Set([429, 503]);

/** Truncated JSON for the "malformed" fault: a 200 a client must not trust. */
export const MALFORMED_BODY = '[{"code": "68520-8-1", "series_final_values": [{"date": "2026-';

/** Returns false when a fault already answered (or dropped) the request. */
export async function guardRequest(
  state: EmulatorState,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: Operation,
  authenticate: boolean,
): Promise<boolean> {
  state.releases.sync();
  const fault = state.faults.onRequest(operation);
  await waitWhileClientWaits(reply, fault.delayMs, state.wait);
  const terminal = fault.terminal;
  if (terminal?.mode === "status") {
    throw new ServiceError(
      terminal.status,
      `Injected fault: ${operation} answered with status ${terminal.status}`,
      RETRYABLE_STATUSES.has(terminal.status) ? 1 : undefined,
    );
  }
  if (terminal?.mode === "drop") {
    reply.hijack();
    request.raw.socket.destroy();
    return false;
  }
  if (terminal?.mode === "malformed") {
    await reply.code(200).type("application/json; charset=utf-8").send(MALFORMED_BODY);
    return false;
  }
  if (state.options.downtime) {
    const now = state.clock.now();
    const downtime = downtimeAt(now, state.options.releaseHour);
    if (downtime !== undefined) {
      const seconds = Math.max(1, Math.ceil((downtime.until.getTime() - now.getTime()) / 1000));
      throw new ServiceError(503, downtime.message, seconds);
    }
  }
  const decision = state.limiter.tryAcquire(operation);
  if (!decision.allowed) {
    throw new ServiceError(
      429,
      `Rate limit exceeded: more than ${state.options.rateLimitPerSecond} ${operation} requests per second`,
      decision.retryAfterSeconds,
    );
  }
  if (authenticate) await state.tokens.verify(request.headers.authorization);
  return true;
}
