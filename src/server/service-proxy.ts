// /service/<path> relayed to the one upstream (--proxy-to URL) by @fastify/http-proxy:
// GET and POST, the path, query, body and Authorization go as they came; the answer's
// status and body come back, as data (relay-headers.ts says which headers cross). The
// add-in then calls its own origin, so no CORS permission of the service is needed.
// Each request is bounded (relay-limits.ts): its body, and the wait for the service. When
// the service cannot be reached or does not answer in time, the add-in gets a plain 502
// or 504 that names no address or cause of the relay's side.
// Nothing of a request or answer is logged (the server runs with Fastify's logger off).
import { Readable } from "node:stream";
import httpProxy from "@fastify/http-proxy";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isSafeProxyPath } from "./proxy-path";
import { RELAYED_HEADERS, requestHeadersForService, responseHeadersForAddin } from "./relay-headers";
import type { ServerLimits } from "./relay-limits";

export const SERVICE_PREFIX = "/service";
const RELAYED_METHODS = ["GET", "POST"];

class RelayRefusal extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

function refuseOutsideRelay(request: FastifyRequest): void {
  if (!RELAYED_METHODS.includes(request.method)) {
    throw new RelayRefusal(405, "Refused: the relay passes GET and POST only.");
  }
  const pathname = request.raw.url?.split("?", 1)[0] ?? "";
  const rest = pathname.startsWith(SERVICE_PREFIX) ? pathname.slice(SERVICE_PREFIX.length) : null;
  if (rest === null || !isSafeProxyPath(rest)) {
    throw new RelayRefusal(
      400,
      "Refused: the path after /service/ must be plain segments of the service's address.",
    );
  }
}

/** The whole body, read before anything is sent upstream, so an oversized one reaches nobody. */
async function readBoundedBody(payload: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > limit) {
      throw new RelayRefusal(413, `Refused: the relay takes request bodies of at most ${limit} bytes.`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** The cause (an address, a socket error) stays here: the add-in only needs to know the
 * service did not answer through the relay. */
function upstreamFailure(error: Error): { status: number; body: { error: string } } {
  const timedOut = "statusCode" in error && error.statusCode === 504;
  return timedOut
    ? { status: 504, body: { error: "The service did not answer the relay in time." } }
    : { status: 502, body: { error: "The relay could not get an answer from the service." } };
}

export async function registerServiceProxy(
  app: FastifyInstance,
  upstream: URL,
  limits: ServerLimits,
): Promise<void> {
  await app.register(async (relay) => {
    const bodyLengths = new WeakMap<object, number>();

    relay.addHook("onRequest", async (request) => {
      refuseOutsideRelay(request);
      const declared = Number(request.headers["content-length"]);
      if (declared > limits.bodyBytes) {
        throw new RelayRefusal(
          413,
          `Refused: the relay takes request bodies of at most ${limits.bodyBytes} bytes.`,
        );
      }
    });
    relay.addHook("preParsing", async (request, _reply, payload) => {
      if (request.method !== "POST") return payload;
      const body = await readBoundedBody(payload, limits.bodyBytes);
      bodyLengths.set(request.raw, body.length);
      return Readable.from([body]);
    });
    relay.addHook("onSend", async (_request, reply, payload) => {
      void reply.headers(RELAYED_HEADERS);
      return payload;
    });
    relay.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
      const status = error instanceof RelayRefusal ? error.statusCode : (error.statusCode ?? 500);
      const message = error instanceof RelayRefusal || status < 500 ? error.message : "The relay failed.";
      void reply.code(status).send({ error: message });
    });

    // Every other method gets its 405 from the onRequest hook, not a 404 from the pages.
    const refusedMethods = relay.supportedMethods.filter(
      (method) => !RELAYED_METHODS.includes(method) && method !== "HEAD",
    );
    for (const url of [SERVICE_PREFIX, `${SERVICE_PREFIX}/*`]) {
      relay.route({ method: refusedMethods, url, handler: async () => undefined });
    }

    await relay.register(httpProxy, {
      upstream: upstream.origin,
      prefix: SERVICE_PREFIX,
      // The upstream's own path is kept: /service/x goes to URL/x.
      rewritePrefix: upstream.pathname.replace(/\/+$/, ""),
      httpMethods: [...RELAYED_METHODS],
      undici: { headersTimeout: limits.upstreamMs, bodyTimeout: limits.upstreamMs },
      replyOptions: {
        rewriteRequestHeaders: (request, headers) => {
          const forwarded = requestHeadersForService(headers);
          const length = bodyLengths.get(request.raw);
          if (length !== undefined) forwarded["content-length"] = String(length);
          return forwarded;
        },
        rewriteHeaders: (headers) => responseHeadersForAddin(headers),
        onError: (reply, { error }) => {
          const failure = upstreamFailure(error);
          void reply.code(failure.status).headers(RELAYED_HEADERS).send(failure.body);
        },
      },
    });
  });
}
