// The one truncation helper: what each kind of message keeps when it is too long.
import { lastSentence, truncate } from "../../src/core/truncate";

const LONG = "x".repeat(300);
const TAIL = ": the latest months of 1-2-3 could not be fetched.";

test.each<[string, string, number, string | undefined, string]>([
  ["a text that fits is whole", "short", 10, undefined, "short"],
  ["exactly the limit is whole", "abcdefghij", 10, undefined, "abcdefghij"],
  ["one over: the start and the mark, the limit long", "abcdefghijk", 10, undefined, "abcdefghi…"],
  ["an echo of 41 characters", "y".repeat(50), 41, undefined, `${"y".repeat(40)}…`],
  ["a 255-character cell message", LONG, 255, undefined, `${"x".repeat(254)}…`],
  ["the kept tail stays whole", `${LONG}${TAIL}`, 255, TAIL, `${"x".repeat(255 - TAIL.length - 1)}…${TAIL}`],
  ["a tail that fits keeps nothing cut", `cause${TAIL}`, 255, TAIL, `cause${TAIL}`],
  ["a tail the text does not end with is ignored", LONG, 20, "zzz", `${"x".repeat(19)}…`],
  ["a tail as long as the limit is cut like the rest", `${LONG}${TAIL}`, 30, TAIL, `${"x".repeat(29)}…`],
  ["a limit of 1 is the mark alone", "abc", 1, undefined, "…"],
])("%s", (_case, text, maxLength, keepTail, expected) => {
  const shown = truncate(text, maxLength, keepTail);
  expect(shown).toBe(expected);
  expect(shown.length).toBeLessThanOrEqual(Math.max(maxLength, 1));
});

test.each<[string, string, number, string]>([
  [
    "the last of two sentences, with its space",
    "It is over. Ask the administrator.",
    255,
    " Ask the administrator.",
  ],
  ["one sentence: nothing", "Ask the administrator.", 255, ""],
  ["a last sentence longer than half: nothing", "Over. Ask the administrator now.", 40, ""],
  ["a stop inside a word is no sentence end", "Version 1.2 is over", 255, ""],
])("lastSentence: %s", (_case, text, maxLength, expected) => {
  expect(lastSentence(text, maxLength)).toBe(expected);
});
