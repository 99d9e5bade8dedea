// Text the runner prints comes partly from others: the service's messages and values, a
// formula file, a cache file. A terminal obeys control characters in it: ESC sequences
// set the window title, clear the screen or make links (OSC 8), a carriage return
// overwrites a line, a newline forges one. So every control character (C0, DEL, C1) in
// printed text is shown as a visible escape (\x1B) instead of being sent as it is.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// What JSON.stringify leaves as it is of those: DEL and C1.
const RAW_IN_JSON = /[\u007f-\u009f]/g;

function hex(char: string): string {
  return char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
}

/** The text with each control character written as \xHH. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => `\\x${hex(char)}`);
}

/**
 * JSON.stringify, with DEL and C1 written as \u00HH too (JSON.stringify escapes only C0):
 * the same document for a parser, nothing a terminal acts on when it is shown.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(RAW_IN_JSON, (char) => `\\u00${hex(char)}`);
}
