// Offline check of the keyboard shortcuts file the manifest's ExtendedOverrides names
// (assets/shortcuts.json): the format Office reads (actions with an id and a name, type
// ExecuteFunction; shortcuts naming a defined action with a default key), key combinations
// Office accepts (at least one of Ctrl, Alt, Cmd; Shift never alone; one other key A-Z,
// 0-9, "-", "_" or "+"), no key used twice, and every action associated in the code.

interface ShortcutAction {
  id?: unknown;
  type?: unknown;
  name?: unknown;
}

interface Shortcut {
  action?: unknown;
  key?: Record<string, unknown>;
}

const PLATFORMS = ["default", "windows", "mac", "web"];
const MODIFIERS = new Set(["CTRL", "ALT", "CMD", "COMMAND", "OPTION", "SHIFT"]);
const KEY = /^(?:[A-Z0-9_+-]|UP|DOWN|LEFT|RIGHT|F([1-9]|1[0-2]))$/;

/** The problem with a key combination such as "Ctrl+Alt+P", or null when Office accepts it. */
export function keyCombinationProblem(combination: string): string | null {
  // "Ctrl++" ends in the + key: split on "+" but keep a trailing "+" as the key.
  const parts = combination.endsWith("++")
    ? [...combination.slice(0, -2).split("+"), "+"]
    : combination.split("+");
  const upper = parts.map((part) => part.trim().toUpperCase());
  const modifiers = upper.filter((part) => MODIFIERS.has(part));
  const keys = upper.filter((part) => !MODIFIERS.has(part));
  if (keys.length !== 1 || !KEY.test(keys[0] ?? "")) {
    return `"${combination}" must have exactly one key besides its modifiers (A-Z, 0-9, -, _, +)`;
  }
  if (modifiers.filter((part) => part !== "SHIFT").length === 0) {
    return `"${combination}" needs Ctrl, Alt or Cmd (Shift alone is not enough)`;
  }
  return null;
}

/** Problems with the shortcuts JSON; an empty list means Office can load it. */
export function checkShortcuts(json: string, associated: (actionId: string) => boolean): string[] {
  let parsed: { actions?: unknown; shortcuts?: unknown };
  try {
    parsed = JSON.parse(json) as typeof parsed;
  } catch (error) {
    return [`shortcuts.json is not JSON: ${error instanceof Error ? error.message : String(error)}`];
  }
  const problems: string[] = [];
  const actions = Array.isArray(parsed.actions) ? (parsed.actions as ShortcutAction[]) : [];
  const shortcuts = Array.isArray(parsed.shortcuts) ? (parsed.shortcuts as Shortcut[]) : [];
  if (actions.length === 0) problems.push('shortcuts.json has no "actions"');
  if (shortcuts.length === 0) problems.push('shortcuts.json has no "shortcuts"');
  const ids = new Set<string>();
  for (const action of actions) {
    const id = typeof action.id === "string" ? action.id : "";
    if (id === "") {
      problems.push("a shortcuts.json action has no id");
      continue;
    }
    if (ids.has(id)) problems.push(`shortcuts.json action "${id}" is defined more than once`);
    ids.add(id);
    if (typeof action.name !== "string" || action.name.trim() === "") {
      problems.push(`shortcuts.json action "${id}" has no name (Office shows it when keys conflict)`);
    }
    if (action.type !== undefined && action.type !== "ExecuteFunction") {
      problems.push(
        `shortcuts.json action "${id}" has type ${String(action.type)}; only ExecuteFunction runs`,
      );
    }
    if (!associated(id))
      problems.push(`shortcut action "${id}" is not associated in src/commands/commands.ts`);
  }
  const used = new Map<string, string>();
  for (const shortcut of shortcuts) {
    const action = typeof shortcut.action === "string" ? shortcut.action : "";
    if (!ids.has(action)) problems.push(`a shortcut names the action "${action}", which is not defined`);
    const key = shortcut.key ?? {};
    if (typeof key.default !== "string") problems.push(`the shortcut for "${action}" has no default key`);
    for (const [platform, combination] of Object.entries(key)) {
      if (!PLATFORMS.includes(platform)) {
        problems.push(`the shortcut for "${action}" names an unknown platform "${platform}"`);
        continue;
      }
      if (typeof combination !== "string") continue;
      const problem = keyCombinationProblem(combination);
      if (problem) problems.push(`the ${platform} shortcut for "${action}": ${problem}`);
      const normalised = `${platform}:${combination.toUpperCase().replaceAll(" ", "")}`;
      const previous = used.get(normalised);
      if (previous !== undefined && previous !== action) {
        problems.push(`${combination} (${platform}) is used by both "${previous}" and "${action}"`);
      }
      used.set(normalised, action);
    }
  }
  return problems;
}
