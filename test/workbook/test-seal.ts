// This computer's seal for the freeze tests: the real HMAC seal, its key in memory.
import { createRecordSeal, type RecordSeal, type SealKeyStore } from "../../src/workbook/record-seal";

export function memorySealKeyStore(): SealKeyStore & { key(): string | undefined } {
  let key: string | undefined;
  return {
    read: async () => key,
    write: async (value) => {
      key = value;
    },
    key: () => key,
  };
}

/** A seal of its own: what another computer would seal with. */
export function testSeal(): RecordSeal {
  return createRecordSeal(memorySealKeyStore());
}

/** The seal the freeze tests share (one computer). */
export const SEAL = testSeal();
