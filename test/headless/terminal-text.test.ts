import { escapeControls, terminalSafeJson } from "../../src/headless/terminal-text";

// eslint-disable-next-line no-control-regex -- what a terminal would act on
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

test.each([
  ["a window title (OSC 0)", "\u001b]0;pwned\u0007x", "\\x1B]0;pwned\\x07x"],
  ["clear screen and home", "\u001b[2J\u001b[Hx", "\\x1B[2J\\x1B[Hx"],
  [
    "an OSC 8 link",
    "\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\",
    "\\x1B]8;;https://evil.example\\x1B\\click\\x1B]8;;\\x1B\\",
  ],
  ["a C1 CSI", "\u009b31mred", "\\x9B31mred"],
  ["a carriage return overwriting the line", "ok\rFAKE", "ok\\x0DFAKE"],
  ["a newline forging a line", "1.5\nTotal: 0 ms", "1.5\\x0ATotal: 0 ms"],
  ["NUL, tab, DEL", "a\u0000b\tc\u007f", "a\\x00b\\x09c\\x7F"],
  ["a right-to-left override reordering a value", "12.5\u202E0.99", "12.5\\u202E0.99"],
  ["an isolate and its pop", "\u2067abc\u2069 1.5", "\\u2067abc\\u2069 1.5"],
  ["the marks", "a\u200Eb\u200Fc\u061Cd", "a\\u200Eb\\u200Fc\\u061Cd"],
  ["line and paragraph separators", "1.5\u2028Total\u2029", "1.5\\u2028Total\\u2029"],
  ["plain text, accents, currency, CJK", "Strom 12,5 €/MWh – é 中", "Strom 12,5 €/MWh – é 中"],
])("%s is printed visibly escaped", (_name, text, printed) => {
  expect(escapeControls(text)).toBe(printed);
  expect(escapeControls(text)).not.toMatch(RAW_CONTROL);
});

test("terminal-safe JSON is the same document, with no raw C0, DEL, C1 or bidirectional control", () => {
  const value = {
    message: "\u001b]0;t\u0007 \u009b2J \u007f \u0085 é \u202E \u2066 \u2028",
    n: [1, "\u0000"],
  };
  const json = terminalSafeJson(value);
  expect(json).not.toMatch(RAW_CONTROL);
  expect(JSON.parse(json)).toEqual(value);
});
