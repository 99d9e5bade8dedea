// The checker itself: each rule must catch the mistakes it names (a check that cannot fail
// would pass any corpus).
import { voiceProblems } from "./message-voice";

test.each<[string, string, RegExp | null]>([
  ["a good message", 'The code "68520-8" is not an assessment code: e.g. "68520-8-1".', null],
  ["lower-case start", "code is missing.", /starts upper-case/],
  ["no final stop", "The code is missing", /ends with a full stop/],
  ["single quotes", "Unknown code '99999-9-99': check it.", /one quoting style/],
  ["curly quotes", "12 series for “gas”.", /one quoting style/],
  ["an apostrophe is not a quote", "In a cell, type '1-2-3.", null],
  ["a possessive is not a quote", "The series' default applies.", null],
  [
    "the doubled cause of the old sign-in message",
    'Wrong username or password: the service refused the sign-in. (The service said: "Invalid credentials".)',
    /the cause said once/,
  ],
  ["a raw value", "Token valid until undefined.", /no raw placeholders/],
])("%s", (_name, message, problem) => {
  const problems = voiceProblems(message);
  if (problem === null) expect(problems).toEqual([]);
  else expect(problems.join("; ")).toMatch(problem);
});
