// The one way a message is shortened: cut to a length, the cut marked with "…". Excel shows
// at most 255 characters of a cell's message, and a message that echoes the user's text or
// a service's answer must still say its cause within them (docs/messages.md).

/**
 * `text` if it fits in `maxLength` characters; else its start, cut so that with the mark "…"
 * it is exactly `maxLength` long. With `keepTail` (a suffix of `text`), the cut is made
 * before that suffix, which stays whole: the part of a message that says what is missing.
 */
export function truncate(text: string, maxLength: number, keepTail = ""): string {
  if (text.length <= maxLength) return text;
  const tail = keepTail !== "" && text.endsWith(keepTail) && keepTail.length < maxLength ? keepTail : "";
  const head = text.slice(0, text.length - tail.length);
  return `${head.slice(0, Math.max(0, maxLength - tail.length - 1))}…${tail}`;
}

/**
 * The text's last sentence with the space before it (" Ask the gateway's administrator…"), to
 * keep whole when the text is cut (truncate's keepTail); "" when it has one sentence or its
 * last is longer than half of `maxLength` (the start of the text must keep room).
 */
export function lastSentence(text: string, maxLength: number): string {
  const end = text.lastIndexOf(". ", text.length - 2);
  const sentence = end < 0 ? "" : text.slice(end + 1);
  return sentence.length <= maxLength / 2 ? sentence : "";
}
