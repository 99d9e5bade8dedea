// This computer's seal for the freeze tests: the real HMAC seal, its key in memory; and a freeze
// with it.
import { freeze, type FreezeOutcome } from "../../src/workbook/freeze";
import { createRecordSeal, type RecordSeal, type SealKeyStore } from "../../src/workbook/record-seal";
import type { FreezeScope, WorkbookHost } from "../../src/workbook/workbook-host";

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

/** Freeze as the tests do: this computer's seal, no provenance, the clock at 0. */
export function freezeHere(host: WorkbookHost, scope: FreezeScope): Promise<FreezeOutcome> {
  return freeze({ seal: SEAL, host, scope, provenance: async () => [], now: () => 0 });
}
