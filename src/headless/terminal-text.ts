// Text the runner prints comes partly from others: the service's messages and values, a
// formula file, a cache file. A terminal obeys control characters in it: ESC sequences
// set the window title, clear the screen or make links (OSC 8), a carriage return
// overwrites a line, a newline forges one; the bidirectional controls (U+202A to U+202E,
// U+2066 to U+2069, the marks U+200E, U+200F and U+061C) reorder what a line shows, and the
// line and paragraph separators (U+2028, U+2029) break it where some terminals do. So every
// such character (C0, DEL, C1 and those) in printed text is shown as a visible escape (\x1B,
// \u202E) instead of being sent as it is.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// What JSON.stringify leaves as it is of those: DEL, C1 and the others above.
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function hex(char: string, digits: number): string {
  return char.charCodeAt(0).toString(16).toUpperCase().padStart(digits, "0");
}

/** The text with each control character written as \xHH (\uHHHH beyond U+00FF). */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) =>
    char.charCodeAt(0) <= 0xff ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`,
  );
}

/**
 * JSON.stringify, with DEL, C1 and the other characters above written as \uHHHH too
 * (JSON.stringify escapes only C0): the same document for a parser, nothing a terminal acts
 * on when it is shown.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(RAW_IN_JSON, (char) => `\\u${hex(char, 4)}`);
}
