// A minimal static file server for the built add-in: 127.0.0.1, an ephemeral port, plain
// HTTP, only files inside the folder.
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
    if (!inside || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404, { "content-type": "text/plain" }).end(`Not found: ${pathname}`);
      return;
    }
    response.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
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
