import { CodesSegmentError, parseCodesSegment } from "../../src/emulator/codes-segment";

test.each([
  ["one code", "68520-8-1", [{ code: "68520-8-1", currencyId: undefined, unitId: undefined }]],
  ["c and u", "68520-8-1&c=3&u=4", [{ code: "68520-8-1", currencyId: 3, unitId: 4 }]],
  ["u before c", "68520-8-1&u=4&c=3", [{ code: "68520-8-1", currencyId: 3, unitId: 4 }]],
  ["leading zero kept", "0912-5-2&u=1", [{ code: "0912-5-2", currencyId: undefined, unitId: 1 }]],
  [
    "unknown ID parses (default applies later)",
    "69138-1-13&c=99",
    [{ code: "69138-1-13", currencyId: 99, unitId: undefined }],
  ],
  // An invalid ID of any form is the default (docs/service.md §4.6), not an error.
  ...["c=abc", "c=", "c", "c=-1", "c=1.5", "c=1e3", "c=9999999999", "c=%20"].map(
    (option): [string, string, unknown[]] => [
      `invalid currency ${option}`,
      `68520-8-1&${option}&u=4`,
      [{ code: "68520-8-1", currencyId: undefined, unitId: 4 }],
    ],
  ),
  [
    "invalid unit u=MWh",
    "68520-8-1&u=MWh",
    [{ code: "68520-8-1", currencyId: undefined, unitId: undefined }],
  ],
  [
    "two codes with their own options",
    "68520-8-1&c=1,91201-1-5&u=7",
    [
      { code: "68520-8-1", currencyId: 1, unitId: undefined },
      { code: "91201-1-5", currencyId: undefined, unitId: 7 },
    ],
  ],
])("%s", (_case, segment, expected) => {
  expect(parseCodesSegment(segment)).toEqual(expected);
});

test("40 codes are allowed", () => {
  expect(parseCodesSegment(Array.from({ length: 40 }, (_, i) => `1-1-${i}`).join(","))).toHaveLength(40);
});

test.each([
  ["empty", "", /No assessment codes/],
  ["41 codes", Array.from({ length: 41 }, (_, i) => `1-1-${i}`).join(","), /Too many codes: 41/],
  ["two groups", "68520-8", /Malformed code '68520-8' at position 1/],
  ["trailing comma", "68520-8-1,", /Malformed code '' at position 2/],
  ["space", "68520-8-1, 912-5-2", /Malformed code ' 912-5-2'/],
  ["unknown key", "68520-8-1&q=1", /Malformed option 'q=1'/],
  ["key with a value-less typo", "68520-8-1&cu=1", /Malformed option 'cu=1'/],
  ["twice", "68520-8-1&u=1&u=2", /Option u given twice for code 68520-8-1/],
  ["twice, once invalid", "68520-8-1&c=x&c=1", /Option c given twice for code 68520-8-1/],
])("%s is rejected with a message naming it", (_case, segment, pattern) => {
  expect(() => parseCodesSegment(segment)).toThrow(CodesSegmentError);
  expect(() => parseCodesSegment(segment)).toThrow(pattern);
});
