// Key combinations as Office accepts them, one row per rule.
import { checkShortcuts, keyCombinationProblem } from "../../scripts/shortcuts-check";

test.each<[string, RegExp | null]>([
  ["Ctrl+Alt+P", null],
  ["Ctrl+Shift+1", null],
  ["Command+Shift+Up", null],
  ["Alt+-", null],
  ["Ctrl++", null],
  ["Shift+P", /needs Ctrl, Alt or Cmd/],
  ["P", /needs Ctrl, Alt or Cmd/],
  ["Ctrl+Alt", /exactly one key/],
  ["Ctrl+P+Q", /exactly one key/],
  ["Ctrl+Alt+Space", /exactly one key/],
])("%s", (combination, expected) => {
  const problem = keyCombinationProblem(combination);
  if (expected === null) expect(problem).toBeNull();
  else expect(problem).toMatch(expected);
});

test("one key for two actions is reported, and so is a duplicate action", () => {
  const json = JSON.stringify({
    actions: [
      { id: "a", type: "ExecuteFunction", name: "A" },
      { id: "b", name: "B" },
      { id: "b", name: "B again" },
    ],
    shortcuts: [
      { action: "a", key: { default: "Ctrl+Alt+P" } },
      { action: "b", key: { default: "ctrl+alt+p", tablet: "Ctrl+Alt+Q" } },
    ],
  });
  expect(checkShortcuts(json, () => true)).toEqual([
    'shortcuts.json action "b" is defined more than once',
    'ctrl+alt+p (default) is used by both "a" and "b"',
    'the shortcut for "b" names an unknown platform "tablet"',
  ]);
});
