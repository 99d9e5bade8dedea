// A minimal static file server for the built add-in: 127.0.0.1, an ephemeral port, plain
// HTTP, only files inside the folder. Each answer carries a validator and asks the browser to
// check it before each use (no-cache), so a page opened again in the same browser context
// gets 304s and runs its scripts from Chromium's cache with V8's compiled code, as a
// deployed add-in's pages do; a file rebuilt in place is never served stale.
import { createReadStream, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const TYPES: Record<string, string> = {
  ".map": "application/json",
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".xml": "application/xml",
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export async function serveFolder(folder: string): Promise<StaticServer> {
  const root = path.resolve(folder);
  const server: Server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://127.0.0.1").pathname);
    const file = path.resolve(root, `.${pathname}`);
    const inside = file === root || file.startsWith(`${root}${path.sep}`);
    const stats = inside ? statSync(file, { throwIfNoEntry: false }) : undefined;
    if (stats === undefined || !stats.isFile()) {
      response.writeHead(404, { "content-type": "text/plain" }).end(`Not found: ${pathname}`);
      return;
    }
    const etag = `"${stats.size.toString(16)}-${Math.trunc(stats.mtimeMs).toString(16)}"`;
    const headers = { etag, "cache-control": "no-cache" };
    if (request.headers["if-none-match"] === etag) {
      response.writeHead(304, headers).end();
      return;
    }
    response.writeHead(200, {
      ...headers,
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
