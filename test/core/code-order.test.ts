import { compareCodes } from "../../src/core/code-order";

describe("compareCodes", () => {
  test.each([
    ["2-1", "10-1", -1],
    ["10-1", "2-1", 1],
    ["64643-1-2", "64643-1-12", -1],
    ["64643-1-12", "64643-1-12", 0],
    ["abc-9", "abc-10", -1],
  ])("%s against %s: %d", (a, b, sign) => {
    expect(Math.sign(compareCodes(a, b))).toBe(sign);
  });

  test("sorts a list in numeric order", () => {
    expect(["10-1", "1-2", "2-1", "1-10"].sort(compareCodes)).toEqual(["1-2", "1-10", "2-1", "10-1"]);
  });
});
