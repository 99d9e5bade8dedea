// /service/<path> relayed to the one upstream (--proxy-to URL) by @fastify/http-proxy:
// method, body and Authorization go as they came, the answer comes back as it is. The
// add-in then calls its own origin, so no CORS permission of the service is needed.
// Nothing of a request or answer is logged (the server runs with Fastify's logger off).
import httpProxy from "@fastify/http-proxy";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isSafeProxyPath } from "./proxy-path";

export const SERVICE_PREFIX = "/service";

function refuseEscapes(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const pathname = request.raw.url?.split("?", 1)[0] ?? "";
  const rest = pathname.startsWith(SERVICE_PREFIX) ? pathname.slice(SERVICE_PREFIX.length) : null;
  if (rest === null || !isSafeProxyPath(rest)) {
    void reply
      .code(400)
      .type("application/json")
      .send({ error: "Refused: the path after /service/ must be plain segments of the service's address." });
    return;
  }
  done();
}

export async function registerServiceProxy(app: FastifyInstance, upstream: URL): Promise<void> {
  await app.register(httpProxy, {
    upstream: upstream.origin,
    prefix: SERVICE_PREFIX,
    // The upstream's own path is kept: /service/x goes to URL/x.
    rewritePrefix: upstream.pathname.replace(/\/+$/, ""),
    preHandler: refuseEscapes,
    replyOptions: {
      rewriteRequestHeaders: (_request, headers) => {
        // The add-in origin's cookies are not the service's business.
        const forwarded = { ...headers };
        delete forwarded.cookie;
        return forwarded;
      },
    },
  });
}
