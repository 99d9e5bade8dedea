// An upstream that records what reaches it (method, raw path, headers, body) and answers
// 200 {"ok":true}, or what the test says (another answer, or none at all): the proxy tests
// look at what was forwarded, at what was not, and at what came back.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/** "silent": the request is read and never answered (the connection stays open until close()). */
export type UpstreamBehaviour = UpstreamAnswer | "silent";

const OK: UpstreamAnswer = {
  status: 200,
  headers: { "content-type": "application/json" },
  body: '{"ok":true}',
};

export interface RecordingUpstream {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startRecordingUpstream(behaviour: UpstreamBehaviour = OK): Promise<RecordingUpstream> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      if (behaviour === "silent") return;
      response.writeHead(behaviour.status, behaviour.headers).end(behaviour.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
