import { PcdError } from "../../../src/core/errors";
import { readCapped } from "../../../src/core/http/read-capped";

/** A response whose body arrives in the given chunks, with or without a declared length. */
function streamed(chunks: Uint8Array[], declaredLength?: number): Response {
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
  const headers = declaredLength === undefined ? undefined : { "Content-Length": String(declaredLength) };
  return new Response(body, { headers });
}

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("readCapped", () => {
  const text = '{"assessment":"Prix moyen pondéré — €/MWh","values":[1.5,2.25]}';
  const bytes = bytesOf(text);
  // "é" and "€" are several bytes: cut inside them, and one byte at a time.
  const cuts = [
    ["one chunk", [bytes]],
    ["cut inside a multi-byte character", [bytes.slice(0, 38), bytes.slice(38)]],
    ["one byte per chunk", Array.from(bytes, (byte) => Uint8Array.of(byte))],
  ] as const;

  test.each(cuts)("reads the whole text: %s", async (_name, chunks) => {
    expect(await readCapped(streamed([...chunks]), 1024, "Series Values")).toBe(text);
  });

  test.each([
    ["a declared length over the cap (nothing read)", streamed([bytes], 10 * 1024 * 1024), 1024 * 1024],
    ["a body that grows past the cap as it arrives", streamed([bytes, bytes, bytes]), bytes.length * 2],
  ] as const)("refuses %s, naming the answer and the cap", async (_name, response, cap) => {
    const read = readCapped(response, cap, "Series Values History");
    await expect(read).rejects.toBeInstanceOf(PcdError);
    await expect(read).rejects.toMatchObject({
      kind: "protocol",
      message: expect.stringMatching(/^The Series Values History answer was too large \(over \d+ MB\)/),
    });
  });
});
