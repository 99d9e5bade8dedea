import { sameResult } from "../../src/functions/same-result";

const shared = [
  [1, "a"],
  [2, "b"],
];

test.each([
  ["the same object", shared, shared, true],
  ["equal numbers", 3.5, 3.5, true],
  ["NaN and NaN", NaN, NaN, true],
  ["different numbers", 1, 2, false],
  ["equal tables built apart", [[1, "a"]], [[1, "a"]], true],
  ["a cell differs", [[1, "a"]], [[1, "b"]], false],
  ["a row more", [[1]], [[1], [2]], false],
  ["a table and a number", [[1]], 1, false],
  [
    "equal formatted dates",
    [{ type: "Double", basicValue: 1, numberFormat: "yyyy-mm-dd" }],
    [{ type: "Double", basicValue: 1, numberFormat: "yyyy-mm-dd" }],
    true,
  ],
  [
    "formatted dates of other days",
    [{ type: "Double", basicValue: 1, numberFormat: "yyyy-mm-dd" }],
    [{ type: "Double", basicValue: 2, numberFormat: "yyyy-mm-dd" }],
    false,
  ],
  ["a record with a key more", { a: 1 }, { a: 1, b: 2 }, false],
  ["a record and an array", { 0: 1 }, [1], false],
  ["null and an empty record", null, {}, false],
])("%s", (_name, a, b, expected) => {
  expect(sameResult(a, b)).toBe(expected);
  expect(sameResult(b, a)).toBe(expected);
});
