// Serves a build folder on 127.0.0.1 (an ephemeral port) for the start-up measurement.
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
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
    if (!file.startsWith(root + path.sep)) {
      response.writeHead(403).end("Outside the served folder");
      return;
    }
    readFile(file).then(
      (body) => {
        response.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream" });
        response.end(body);
      },
      () => response.writeHead(404).end(`Not found: ${pathname}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
