// How a test starts one of the repository's TypeScript programs as a process of its own: node
// with a require hook that transpiles with swc (typescript-require-hook.js). Not tsx, which
// `npm run recalc` uses: its loader costs about 0.45 CPU-seconds more a process (the headless
// runner's --help: 0.72 against 0.26, measured), and the tests start dozens. tsx's own path is
// tested where the README's commands are.

/** Absolute, so that a child started in another folder finds the hook as well. */
const REQUIRE_HOOK = require.resolve("./typescript-require-hook.js");

/** node's arguments that run `script` (a .ts file) with `args`. */
export function typescriptProcessArgs(script: string, ...args: string[]): string[] {
  return ["--require", REQUIRE_HOOK, script, ...args];
}
