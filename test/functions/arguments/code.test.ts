import { PcdError } from "../../../src/core/errors";
import { parseCode } from "../../../src/functions/arguments/code";
import { MAX_ERROR_MESSAGE_LENGTH } from "../../../src/functions/cell-errors";

test.each([
  ["68520-8-1", "68520-8-1"],
  ["69138-1-13", "69138-1-13"],
  ["0912-5-2", "0912-5-2"],
  ["  2259-6-2 ", "2259-6-2"],
  ["68520\u20138\u20131", "68520-8-1"],
])("%j is the code %s", (input, code) => {
  expect(parseCode(input)).toBe(code);
});

function inputErrorOf(input: unknown): PcdError {
  try {
    parseCode(input);
  } catch (error) {
    if (error instanceof PcdError) return error;
    throw error;
  }
  throw new Error(`parseCode accepted ${String(input)}`);
}

test.each([
  [
    68511,
    /^The code arrived as the number 68511: Excel computed a code without quotes \(68520-8-1\) as arithmetic, or turned a code typed in a cell \(1-2-3\) into the date 2087-07-28\. Quote the code, e\.g\. "68520-8-1"; in a cell, format it as Text or type '1-2-3\.$/,
  ],
  [37623, /number 37623: .* into the date 2003-01-02\./],
  [2958465, /into the date 9999-12-31\./],
  [
    -7,
    /arrived as the number -7: Excel computed a code typed without quotes \(68520-8-1\) as arithmetic. Type the code as text in quotes, e.g. "68520-8-1"\./,
  ],
  [12.5, /arrived as the number 12\.5: Excel computed/],
  [3000000, /number 3000000: Excel computed/],
  [null, /code is missing/],
  ["", /code is missing/],
  [true, /code arrived as TRUE/],
  [
    "68520-8",
    /code "68520-8" is not an assessment code: a code is three groups of digits separated by hyphens/,
  ],
  ["ABC-1-2", /"ABC-1-2" is not an assessment code/],
  ["68520-8-1-2", /is not an assessment code/],
  ["68520 8 1", /is not an assessment code/],
  ["x".repeat(10_000), /^The code "x{40}…" is not an assessment code: a code is three groups of digits/],
])("%j is rejected: %s", (input, message) => {
  const error = inputErrorOf(input);
  expect(error.kind).toBe("input");
  expect(error.details.argument).toBe("code");
  expect(error.message).toMatch(message);
  expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH);
});
