import { escapeControls, terminalSafeJson } from "../../src/headless/terminal-text";

// eslint-disable-next-line no-control-regex -- what a terminal would act on
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

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
  ["plain text, accents, currency, CJK", "Strom 12,5 €/MWh – é 中", "Strom 12,5 €/MWh – é 中"],
])("%s is printed visibly escaped", (_name, text, printed) => {
  expect(escapeControls(text)).toBe(printed);
  expect(escapeControls(text)).not.toMatch(RAW_CONTROL);
});

test("terminal-safe JSON is the same document, with no raw C0, DEL or C1", () => {
  const value = { message: "\u001b]0;t\u0007 \u009b2J \u007f \u0085 é", n: [1, "\u0000"] };
  const json = terminalSafeJson(value);
  expect(json).not.toMatch(RAW_CONTROL);
  expect(JSON.parse(json)).toEqual(value);
});
