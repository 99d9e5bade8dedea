import { parseRetryAfter } from "../../../src/core/http/retry-after";

const NOW = Date.parse("2026-11-18T15:00:00Z");

describe("parseRetryAfter", () => {
  test.each<[string | null | undefined, number | null]>([
    ["3", 3_000],
    [" 0 ", 0],
    ["1.5", 1_500],
    ["Wed, 18 Nov 2026 15:00:30 GMT", 30_000],
    ["Wed, 18 Nov 2026 14:00:00 GMT", 0], // a date in the past: no wait
    ["soon", null],
    ["-5", null],
    ["", null],
    [null, null],
    [undefined, null],
  ])("%p -> %p ms", (header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });
});
