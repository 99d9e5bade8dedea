// The production server of `npm run serve`: the built add-in (dist/) with security and
// cache headers and compression, GET /healthz, and optionally the service relay.
import { readFileSync } from "node:fs";
import path from "node:path";
import compress from "@fastify/compress";
import Fastify, { type FastifyInstance } from "fastify";
import { addAddinSiteHeaders, registerAddinFiles } from "./addin-site";
import { packageVersion } from "./package-version";
import { DEFAULT_LIMITS, type ServerLimits } from "./relay-limits";
import type { ServeOptions } from "./serve-args";
import { registerServiceProxy, SERVICE_PREFIX } from "./service-proxy";

export async function buildServer(
  options: ServeOptions,
  limits: ServerLimits = DEFAULT_LIMITS,
): Promise<FastifyInstance> {
  const dist = path.resolve(options.dist);
  const tls = options.cert !== undefined && options.key !== undefined;
  const version = packageVersion();
  // A client that sends its headers or body slowly is cut off after a few seconds, so a
  // few hundred such connections cannot keep the server from everyone else. The idle
  // limit of a connection is above the relay's wait for the service.
  const clientTimeouts = {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  };
  const app = Fastify({
    // Off on purpose: requests carry passwords and tokens; nothing of them is written anywhere.
    logger: false,
    forceCloseConnections: true,
    requestTimeout: limits.requestMs,
    connectionTimeout: limits.upstreamMs + limits.requestMs,
    http: clientTimeouts,
    ...(tls
      ? {
          https: {
            ...clientTimeouts,
            cert: readFileSync(options.cert ?? ""),
            key: readFileSync(options.key ?? ""),
          },
        }
      : {}),
  });

  addAddinSiteHeaders(app, dist, tls);
  await app.register(compress, { global: true });

  app.get("/healthz", async (_request, reply) => {
    void reply.header("cache-control", "no-store");
    return { status: "ok", version };
  });

  if (options.proxyTo) await registerServiceProxy(app, options.proxyTo, limits);
  else {
    app.all(`${SERVICE_PREFIX}/*`, async (_request, reply) =>
      reply.code(404).send({ error: "No service relay: start npm run serve with --proxy-to URL." }),
    );
  }

  await registerAddinFiles(app, dist);
  return app;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startServer(
  options: ServeOptions,
  limits: ServerLimits = DEFAULT_LIMITS,
): Promise<RunningServer> {
  const app = await buildServer(options, limits);
  await app.listen({ port: options.port, host: options.host });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const scheme = options.cert !== undefined ? "https" : "http";
  return { url: `${scheme}://${host}:${port}`, app, close: () => app.close() };
}
