// How deeply a JSON text nests, found by a scan of its characters before it is parsed.
// The answer cap (read-capped.ts) bounds an answer's bytes, not what parsing makes of them:
// 16 MB of "[[[[..." become millions of arrays, hundreds of megabytes in memory, and a
// deep enough text makes the parser itself fail. No answer of the service nests deeper
// than a few levels (docs/service.md: a list of records whose point lists hold objects),
// so a text past the bound is refused without being parsed.

/** Four levels above the deepest real answer (list > record > point list > point). */
export const MAX_ANSWER_NESTING = 8;

const OPEN_BRACKET = 0x5b; // [
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACKET = 0x5d; // ]
const CLOSE_BRACE = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether the text opens more than maxDepth arrays or objects inside one another (brackets
 * inside strings do not count). Stops at the first level past the bound; allocates nothing.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === BACKSLASH) at += 1;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) {
      depth -= 1;
    }
  }
  return false;
}
