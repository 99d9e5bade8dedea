// Which frozen cells this computer froze. The freeze record lives in the workbook's
// document settings, which anyone who had the file could have edited: a record planted
// there could name any formula and any range. Freeze seals each cell it records with an
// HMAC under a key that never leaves this computer (it is kept in the add-in's own
// storage, not in the workbook); Restore puts a sealed cell back as it is, and lists any
// other (frozen elsewhere, or edited in the file) for the person to confirm first.
import type { FrozenCell } from "./frozen-record";

export interface RecordSeal {
  /** The seal of a cell's record (what Freeze stores with it). */
  seal(cell: Omit<FrozenCell, "seal">): Promise<string>;
  /** True when `cell.seal` is this computer's seal of exactly this record. */
  verify(cell: FrozenCell): Promise<boolean>;
}

/** Where the seal's key lives: the add-in's storage on this computer. */
export interface SealKeyStore {
  read(): Promise<string | undefined>;
  write(key: string): Promise<void>;
}

const ALGORITHM = { name: "HMAC", hash: "SHA-256" } as const;

/** The record's fields in a fixed order: the seal covers every one of them. */
function sealedText(cell: Omit<FrozenCell, "seal">): string {
  return JSON.stringify([
    cell.address,
    cell.formula,
    cell.range,
    cell.values,
    cell.numberFormats,
    // Field by field: the record read back lists an object's fields in its schema's order.
    cell.series.map((series) => [
      series.code,
      series.currency,
      series.unit,
      series.releaseMonth,
      series.latestMonth,
      series.retrievedAt,
      series.description,
      series.owner,
    ]),
    cell.frozenAt,
  ]);
}

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const raw = atob(text);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** A seal under the store's key (made on first use: 256 random bits). */
export function createRecordSeal(store: SealKeyStore, crypto: Crypto = globalThis.crypto): RecordSeal {
  let key: Promise<CryptoKey> | undefined;
  const keyOf = (): Promise<CryptoKey> => {
    key ??= (async () => {
      const stored = await store.read();
      let raw = stored === undefined ? null : fromBase64(stored);
      if (raw === null || raw.length !== 32) {
        raw = crypto.getRandomValues(new Uint8Array(32));
        await store.write(toBase64(raw));
      }
      return crypto.subtle.importKey("raw", raw, ALGORITHM, false, ["sign", "verify"]);
    })();
    return key;
  };
  const encode = (cell: Omit<FrozenCell, "seal">): Uint8Array<ArrayBuffer> =>
    new TextEncoder().encode(sealedText(cell));
  return {
    async seal(cell) {
      const signature = await crypto.subtle.sign(ALGORITHM, await keyOf(), encode(cell));
      return toBase64(new Uint8Array(signature));
    },
    async verify(cell) {
      if (cell.seal === undefined) return false;
      const signature = fromBase64(cell.seal);
      if (signature === null) return false;
      return crypto.subtle.verify(ALGORITHM, await keyOf(), signature, encode(cell));
    },
  };
}

/** The key in the browser's localStorage (per add-in origin, on this computer), else in memory. */
export function browserSealKeyStore(name = "pcd:freeze-seal-key"): SealKeyStore {
  let memory: string | undefined;
  const storage = (): Storage | undefined => {
    try {
      return globalThis.localStorage;
    } catch {
      return undefined;
    }
  };
  return {
    async read() {
      return storage()?.getItem(name) ?? memory;
    },
    async write(key) {
      memory = key;
      try {
        storage()?.setItem(name, key);
      } catch {
        // Private mode or a full store: the key lives for this session, so cells frozen now
        // restore without a question in this session and are confirmed after a restart.
      }
    },
  };
}
