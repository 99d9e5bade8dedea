// How a test starts one of the repository's TypeScript programs as a process of its own: node
// with tsx's loader imported. One process: tsx's command-line wrapper (what `npm run recalc`
// uses) would start a second node to run it, about a third more CPU a process (measured),
// and the tests start dozens. The wrapper's own path is tested where the README's commands are.
import { pathToFileURL } from "node:url";

/** Absolute, so that a child started in another folder finds the loader as well. */
const TSX_LOADER = pathToFileURL(require.resolve("tsx")).href;

/** node's arguments that run `script` (a .ts file) with `args`. */
export function typescriptProcessArgs(script: string, ...args: string[]): string[] {
  return ["--import", TSX_LOADER, script, ...args];
}
