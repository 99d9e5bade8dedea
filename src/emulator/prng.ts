// Deterministic pseudo-randomness: every generated number derives from the seed and a
// textual key, so the same seed always yields the same catalog and values, and one
// series' numbers do not shift when another series is added.

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a 32-bit hash of a string. */
export function hashString(text: string): number {
  return continueHash(FNV_OFFSET, text);
}

/** FNV-1a over more text: continueHash(hashString(a), b) === hashString(a + b). */
function continueHash(start: number, text: string): number {
  let hash = start;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The text a generator's key hashes: the seed, then each part, "|" between. */
function keyText(seed: number, key: readonly (string | number)[]): string {
  return `${seed}|${key.join("|")}`;
}

/**
 * Seeds for keys that share their first parts, e.g. every step of one series' walk: the shared
 * part is hashed once and each seed continues from it, the same numbers as Prng.from with the
 * whole key (FNV-1a reads the text left to right). A catalog-wide pass hashes thousands of keys.
 */
export function keyedSeeds(
  seed: number,
  ...prefix: readonly (string | number)[]
): (last: string | number) => number {
  // The key's text up to its last part: an empty last part leaves the separator before it.
  const start = continueHash(FNV_OFFSET, keyText(seed, [...prefix, ""]));
  return (last) => continueHash(start, String(last));
}

/** A mulberry32 generator: small, fast and good enough for synthetic data. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static from(seed: number, ...key: readonly (string | number)[]): Prng {
    return new Prng(hashString(keyText(seed, key)));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Roughly standard normal (sum of uniforms): bounded tails keep walks realistic. */
  normal(): number {
    return (this.next() + this.next() + this.next() + this.next() - 2) * 1.7320508;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("Cannot pick from an empty list");
    return item;
  }
}

/** A one-off uniform number in [0, 1) for a key, without keeping a generator. */
export function uniformFor(seed: number, ...key: readonly (string | number)[]): number {
  return Prng.from(seed, ...key).next();
}
