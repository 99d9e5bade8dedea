// Every message of the message corpus (test/golden/messages.json: each function's messages
// per input class, from the real engine) against the rules of docs/messages.md a machine
// can check. The engine's known exceptions (docs/messages.md) are listed here by their
// start, so a new message that breaks a rule fails, and an exception fixed at its owner
// shows as a rule no longer broken (remove it from the list).
import { readFileSync } from "node:fs";
import path from "node:path";
import { voiceProblems } from "../support/message-voice";
import { GOLDEN_DIR } from "../support/golden-file";

/** Engine messages that still break a rule: single quotes, or no final stop after the service's own words. */
const KNOWN_EXCEPTIONS: ReadonlyArray<[RegExp, string]> = [
  [/^Unknown code '/, "single quotes, ends with the check time"],
  [/^(Currency|Unit) '.*' is not offered for /, "single quotes, ends with the list"],
  [/^(Currency|Unit) does not apply to /, "ends without a stop"],
  [/^Monthly allowance used up for dataset '/, "single quotes"],
  [/ The service said: /, "ends as the service's own words end"],
];

const corpus = JSON.parse(readFileSync(path.join(GOLDEN_DIR, "messages.json"), "utf8")) as Record<
  string,
  Record<string, string> | string[]
>;

/** [input class, case, message] of every message (results that are values are left out). */
const messages: Array<[string, string, string]> = Object.entries(corpus).flatMap(([inputClass, cases]) =>
  Array.isArray(cases)
    ? []
    : Object.entries(cases)
        .filter(([, shown]) => shown !== "value")
        .map(([name, shown]): [string, string, string] => [inputClass, name, shown.replace(/^#\S+ /, "")]),
);

test("the corpus has messages of every input class", () => {
  expect(messages.length).toBeGreaterThan(400);
});

const isKnownException = (message: string): boolean =>
  KNOWN_EXCEPTIONS.some(([pattern]) => pattern.test(message));

test.each(messages.filter(([, , message]) => !isKnownException(message)))(
  "%s, %s: follows docs/messages.md",
  (_class, _case, message) => {
    expect(voiceProblems(message)).toEqual([]);
  },
);

test.each(KNOWN_EXCEPTIONS)("the known exception %s still occurs and still breaks a rule", (pattern) => {
  const matching = messages.filter(([, , message]) => pattern.test(message));
  expect(matching.length).toBeGreaterThan(0);
  expect(matching.some(([, , message]) => voiceProblems(message).length > 0)).toBe(true);
});
