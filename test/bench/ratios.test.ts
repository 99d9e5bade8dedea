import { formatRatio, ratio } from "../../bench/ratios";

describe("ratio and formatRatio", () => {
  test.each([
    [10, 10, 1, "1.00"],
    [12, 10, 1.2, "1.20"],
    [0, 0, 1, "1.00"],
    [3, 0, null, "3 vs 0"],
    [null, 5, null, "n/a"],
    [5, null, null, "n/a"],
  ])("%p against %p", (measured, reference, expected, text) => {
    expect(ratio(measured, reference)).toBe(expected);
    expect(formatRatio(measured, reference)).toBe(text);
  });
});
