// Reads an HTTP answer's body as text, refusing one larger than a cap (a broken or hostile
// server must not make PCD hold an unbounded answer). The bytes are gathered and decoded
// once: decoding each chunk and appending made a string per chunk and a chain of them,
// which the JSON parser then copied into one.
import { PcdError } from "../errors";

export async function readCapped(response: Response, maxBytes: number, label: string): Promise<string> {
  const tooLarge = (): PcdError =>
    new PcdError(
      "protocol",
      `The ${label} answer was too large (over ${Math.round(maxBytes / 1024 / 1024)} MB); PCD stopped reading it.`,
    );
  const declared = Number(response.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const decoder = new TextDecoder();
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(bytes);
}
