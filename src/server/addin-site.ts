// The built add-in as a site: on every answer the security headers with the content security
// policy of its pages, and its files with cache headers. The production server and the team
// gateway (with --dist) serve it the same way. Two steps, because the headers hook goes before
// the routes and the files after them (and after compression, where there is compression).
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { cacheControlFor } from "./cache-policy";
import { readPagePolicy } from "./page-policy";
import { securityHeaders } from "./security-headers";

export function addAddinSiteHeaders(app: FastifyInstance, dist: string, tls: boolean): void {
  const headers = securityHeaders({ contentSecurityPolicy: readPagePolicy(path.resolve(dist)), tls });
  app.addHook("onSend", async (_request, reply, payload) => {
    reply.headers(headers);
    return payload;
  });
}

export async function registerAddinFiles(app: FastifyInstance, dist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.resolve(dist),
    index: ["taskpane.html"],
    cacheControl: false,
    dotfiles: "deny",
    setHeaders: (response, filePath) => {
      response.setHeader("cache-control", cacheControlFor(filePath));
    },
  });
}
