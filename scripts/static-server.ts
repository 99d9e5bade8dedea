// A static file server for a built add-in folder (the browser tests' site, the startup
// benchmark's): 127.0.0.1, an ephemeral port, plain HTTP, only files inside the folder, served
// by @fastify/static as the production server serves them (src/server/addin-site.ts). Each
// file carries its validators (ETag, Last-Modified) and asks the browser to check them before
// each use (no-cache), so a page opened again in the same browser context gets 304s and runs
// its scripts from Chromium's cache with V8's compiled code; a file rebuilt in place is never
// served stale.
import path from "node:path";
import fastifyStatic from "@fastify/static";
import Fastify from "fastify";

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export async function serveFolder(folder: string): Promise<StaticServer> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(fastifyStatic, {
    root: path.resolve(folder),
    index: false,
    dotfiles: "deny",
    cacheControl: false,
    setHeaders: (response) => response.setHeader("cache-control", "no-cache"),
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  return { url: address, close: () => app.close() };
}
