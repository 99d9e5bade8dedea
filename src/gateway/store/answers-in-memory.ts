// The answers this gateway served lately, kept in its own memory in front of the database, so
// that serving a kept answer costs no query. An answer is only taken from here while it is
// current: its fingerprint equals the one the catalog gives now (a series that changed since is
// read from the database again, where another instance may already have bought it). Purchases
// never read from here: under the key locks they read the database, the one truth shared by
// every instance.
import { LRUCache } from "lru-cache";
import type { CachedAnswer } from "./gateway-store";

/** How much answer text one gateway keeps in memory (characters, about bytes for this JSON). */
export const ANSWERS_IN_MEMORY_CHARS = 64 * 1024 * 1024;

export class AnswersInMemory {
  private readonly answers: LRUCache<string, CachedAnswer>;

  constructor(maxChars: number = ANSWERS_IN_MEMORY_CHARS) {
    this.answers = new LRUCache<string, CachedAnswer>({
      maxSize: maxChars,
      // The record's text is nearly all of an answer's size; the key is counted with it.
      sizeCalculation: (answer) => Math.max(1, answer.recordJson.length + answer.key.length),
    });
  }

  /** The kept answer for the key when it was bought at this fingerprint; undefined otherwise. */
  current(key: string, fingerprint: string | null): CachedAnswer | undefined {
    if (fingerprint === null) return undefined;
    const answer = this.answers.get(key);
    return answer !== undefined && answer.fingerprint === fingerprint ? answer : undefined;
  }

  keep(answer: CachedAnswer): void {
    this.answers.set(answer.key, answer);
  }

  get size(): number {
    return this.answers.size;
  }
}
