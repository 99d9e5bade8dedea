import { PcdError } from "../../../src/core/errors";
import { buildCodesSegment, isValidCode } from "../../../src/core/http/codes-segment";
import type { CodeRequest } from "../../../src/core/model";

const code = (
  value: string,
  currencyId: number | null = null,
  unitId: number | null = null,
): CodeRequest => ({
  code: value,
  currencyId,
  unitId,
});

describe("buildCodesSegment (docs/service.md §4.6)", () => {
  test.each<[CodeRequest[], string]>([
    [[code("68520-8-1")], "68520-8-1"],
    [[code("68520-8-1", 3, 7), code("912-5-2")], "68520-8-1&c=3&u=7,912-5-2"],
    [[code("68520-8-1", 3)], "68520-8-1&c=3"],
    [[code("68520-8-1", null, 7)], "68520-8-1&u=7"],
    [[code("0912-5-2")], "0912-5-2"], // a leading zero is kept
    [[code("69138-1-13", 9, 31)], "69138-1-13&c=9&u=31"], // a two-digit last group
    [[code("1-1-1", 1), code("2-2-2", null, 2), code("3-3-3", 3, 3)], "1-1-1&c=1,2-2-2&u=2,3-3-3&c=3&u=3"],
  ])("%o -> %s", (codes, expected) => {
    expect(buildCodesSegment(codes)).toBe(expected);
  });

  test("40 codes are fine and joined with bare commas", () => {
    const codes = Array.from({ length: 40 }, (_, i) => code(`${i + 1}-1-1`));
    const segment = buildCodesSegment(codes);
    expect(segment.split(",")).toHaveLength(40);
    expect(segment).not.toMatch(/%/);
  });

  test.each<[string, CodeRequest[], RegExp]>([
    ["no code", [], /at least one code/],
    ["41 codes", Array.from({ length: 41 }, (_, i) => code(`${i + 1}-1-1`)), /at most 40 codes; 41/],
    ["a duplicate code", [code("912-5-2"), code("1-1-1"), code("912-5-2", 3)], /912-5-2 appears twice/],
    ["a malformed code", [code("68520-8")], /"68520-8" is not an assessment code/],
    ["a code with spaces", [code(" 68520-8-1")], /not an assessment code/],
    ["a negative currency id", [code("68520-8-1", -1)], /Invalid c=-1/],
    ["a fractional unit id", [code("68520-8-1", null, 1.5)], /Invalid u=1.5/],
  ])("rejects %s with a bad_request error", (_name, codes, message) => {
    expect(() => buildCodesSegment(codes)).toThrow(PcdError);
    try {
      buildCodesSegment(codes);
    } catch (error) {
      expect((error as PcdError).kind).toBe("bad_request");
      expect((error as PcdError).message).toMatch(message);
    }
  });
});

describe("isValidCode", () => {
  test.each([
    ["68520-8-1", true],
    ["91201-1-5", true],
    ["69138-1-13", true],
    ["0912-5-2", true],
    ["68520-8", false],
    ["68520-8-1-2", false],
    ["a-b-c", false],
    ["", false],
  ])("%s -> %p", (value, valid) => {
    expect(isValidCode(value)).toBe(valid);
  });
});
