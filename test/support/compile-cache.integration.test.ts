// The Jest workers' code cache (compile-cache.js) must not keep a test file's realm alive once
// the file has run: a worker runs a hundred files, and each realm holds the file's modules and
// their data. Checked in a Node process of its own, where the garbage collector can be asked to
// run (--expose-gc) without switching it on in the test's own process.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const COMPILE_CACHE = path.join(__dirname, "compile-cache.js");

/**
 * Compiles a module's code in `realms` vm contexts in turn, as Jest does for each test file (the
 * first compile produces the cache, the later ones use it), drops every context, collects
 * garbage, and prints how many contexts are still alive, and how many used the cache.
 */
const SCRIPT = `
const vm = require("node:vm");
const { cacheCompiledCode } = require(${JSON.stringify(COMPILE_CACHE)});
cacheCompiledCode();
const source = "return exports.answer = 6 * 7;";
let alive = 0;
let usedCache = 0;
const registry = new FinalizationRegistry(() => (alive -= 1));
for (let file = 0; file < 5; file += 1) {
  const context = vm.createContext({});
  const compiled = vm.compileFunction(source, ["exports"], { filename: "/module.js", parsingContext: context });
  if (compiled.cachedDataRejected === false) usedCache += 1;
  if (compiled({}) !== 42) throw new Error("the compiled module computed something else");
  registry.register(context, file);
  alive += 1;
}
(async () => {
  for (let round = 0; round < 10 && alive > 0; round += 1) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  process.stdout.write(JSON.stringify({ alive, usedCache }));
})();
`;

test("a test file's realm is not kept once the file has run, and later files still use the cache", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "-e", SCRIPT], {
    timeout: 20_000,
  });
  expect(JSON.parse(stdout)).toEqual({ alive: 0, usedCache: 4 });
});
