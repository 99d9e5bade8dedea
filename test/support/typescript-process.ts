// How a test starts one of the repository's TypeScript programs as a process of its own: node
// with a require hook that transpiles with swc (typescript-require-hook.js). Not tsx, which
// `npm run recalc` uses: its loader costs about 0.45 CPU-seconds more a process (the headless
// runner's --help: 0.72 against 0.26, measured), and the tests start dozens. tsx's own path is
// tested where the README's commands are.
//
// `--liftoff-only`: V8 runs WebAssembly with its baseline compiler alone (it changes how fast,
// not what, the code computes). These processes live seconds; in those that open the gateway's
// PGlite (Postgres compiled to WebAssembly), V8's optimising compiler, tiering up PGlite's hot
// functions on background threads, costs more than it saves: the gateway's `user list` on a
// kept database took about 1.4 CPU-seconds with the flag against 2.2 without (measured).

/** Absolute, so that a child started in another folder finds the hook as well. */
const REQUIRE_HOOK = require.resolve("./typescript-require-hook.js");

/** node's arguments that run `script` (a .ts file) with `args`. */
export function typescriptProcessArgs(script: string, ...args: string[]): string[] {
  return ["--liftoff-only", "--require", REQUIRE_HOOK, script, ...args];
}
