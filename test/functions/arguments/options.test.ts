import {
  parseForecast,
  parseHeaders,
  parseMaxRows,
  parseOrder,
} from "../../../src/functions/arguments/options";

test.each([
  [parseHeaders, null, 1],
  [parseHeaders, 0, 0],
  [parseHeaders, 2, 2],
  [parseHeaders, "2", 2],
  [parseForecast, null, 1],
  [parseForecast, 0, 0],
  [parseForecast, 2, 2],
  [parseOrder, null, 0],
  [parseOrder, 1, 1],
  [parseOrder, true, 1],
  [parseMaxRows, null, 20],
  [parseMaxRows, 1, 1],
  [parseMaxRows, 500, 500],
])("%p(%j) is %j", (parse, input, expected) => {
  expect(parse(input)).toBe(expected);
});

test.each([
  [
    parseHeaders,
    3,
    "The headers argument must be 0 (no headers), 1 (column headers, the default) or 2 (series line and column headers); got 3.",
  ],
  [
    parseHeaders,
    1.5,
    "The headers argument must be 0 (no headers), 1 (column headers, the default) or 2 (series line and column headers); got 1.5.",
  ],
  [
    parseForecast,
    -1,
    "The forecast argument must be 0 (finals only), 1 (finals and forecasts, the default) or 2 (forecasts only); got -1.",
  ],
  [parseOrder, 2, "The order argument must be 0 (oldest first, the default) or 1 (newest first); got 2."],
  [
    parseOrder,
    "newest",
    'The order argument must be 0 (oldest first, the default) or 1 (newest first); got "newest".',
  ],
  [parseMaxRows, 0, "The max_rows argument must be a whole number from 1 to 500 (default 20); got 0."],
  [parseMaxRows, 501, "The max_rows argument must be a whole number from 1 to 500 (default 20); got 501."],
  [parseMaxRows, 2.5, "The max_rows argument must be a whole number from 1 to 500 (default 20); got 2.5."],
])("%p(%j) is rejected", (parse, input, message) => {
  expect(() => parse(input)).toThrow(expect.objectContaining({ kind: "input", message }));
});
