// Latency (the --latency options and latency faults) as a wait that ends early when the
// client hangs up. The request is still processed (and charged) as a real service would
// process it; only the pointless timer goes, so a test that aborts a slow request does not
// leave a timer holding its process open for the rest of the latency.
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyReply } from "fastify";

const realWait = (ms: number, signal: AbortSignal): Promise<void> => sleep(ms, undefined, { signal });

export async function waitWhileClientWaits(
  reply: FastifyReply,
  ms: number,
  wait: (ms: number, signal: AbortSignal) => Promise<void> = realWait,
): Promise<void> {
  if (ms <= 0) return;
  const gone = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableEnded) gone.abort();
  };
  reply.raw.once("close", onClose);
  try {
    await wait(ms, gone.signal);
  } catch {
    // The client hung up: stop waiting.
  } finally {
    reply.raw.off("close", onClose);
  }
}
