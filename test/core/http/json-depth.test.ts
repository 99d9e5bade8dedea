import { MAX_ANSWER_NESTING, nestsDeeperThan } from "../../../src/core/http/json-depth";

const nested = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;

test.each<[string, string, number, boolean]>([
  ["a scalar", "42", 0, false],
  ["a flat list at its bound", "[1,2,3]", 1, false],
  ["a flat list past a bound of 0", "[1]", 0, true],
  ["8 arrays inside one another, bound 8", nested(8), 8, false],
  ["9 arrays inside one another, bound 8", nested(9), 8, true],
  ["objects count like arrays", '{"a":{"b":{"c":1}}}', 2, true],
  ["brackets inside strings do not count", '["[[[[{{{{", "]]]]"]', 1, false],
  ["an escaped quote does not end the string", '["\\"[[[[[["]', 1, false],
  ["an escaped backslash before the closing quote", '["\\\\", [[1]]]', 2, true],
  ["siblings do not add up", "[[1],[2],[3],[4],[5],[6],[7],[8],[9]]", 2, false],
  ["200,000 levels (16 MB answers hold millions)", nested(200_000), MAX_ANSWER_NESTING, true],
])("%s", (_name, text, bound, deeper) => {
  expect(nestsDeeperThan(text, bound)).toBe(deeper);
});

test("the service's deepest answer nests 4 levels (list > record > point list > point): within the bound", () => {
  const answer = JSON.stringify([
    {
      code: "68520-8-1",
      series_final_values: [{ date: "2026-09-01", value: 1 }],
      series_forecast_values: [{ date: "2026-12-01", value: 2 }],
    },
  ]);
  expect(nestsDeeperThan(answer, 3)).toBe(true);
  expect(nestsDeeperThan(answer, 4)).toBe(false);
  expect(MAX_ANSWER_NESTING).toBeGreaterThanOrEqual(4);
});
