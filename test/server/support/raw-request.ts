// Sends a request with its target and Host exactly as written (fetch and URL would
// resolve "..", and a client would never send "http://other/..." as a path) and resolves
// with the answer's status code as soon as the status line arrives.
import { connect } from "node:net";

export function rawRequest(baseUrl: string, requestLine: string, host?: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const lines = [requestLine, `Host: ${host ?? `${hostname}:${port}`}`, "Connection: close", "", ""];
      socket.write(lines.join("\r\n"));
    });
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(answer);
      if (status?.[1]) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on("end", () => reject(new Error(`no HTTP answer: ${answer.slice(0, 80)}`)));
    socket.on("error", reject);
  });
}
