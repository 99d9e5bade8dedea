// The lanes' compile cache (test/support/compile-cache.js): a worker compiling the same module
// source again (the next test file's copy) hands V8 the code it produced the first time; other
// sources, and callers that manage cached data themselves, compile as before.
import vm from "node:vm";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cacheCompiledCode } = require("../support/compile-cache") as { cacheCompiledCode: () => void };

/** What `vm.compileFunction` reports about cached data on the function it returns. */
interface Compiled {
  (): unknown;
  cachedDataProduced?: boolean;
  cachedDataRejected?: boolean;
}

let files = 0;
/** A file name no other test compiled. */
const newFile = (): string => `/pcd-compile-cache-test/module-${++files}.js`;

function compile(source: string, filename: string, options: vm.CompileFunctionOptions = {}): Compiled {
  return vm.compileFunction(source, [], { filename, ...options }) as Compiled;
}

beforeAll(() => cacheCompiledCode());

test.each([
  {
    case: "the same source again: compiled from the code produced the first time",
    second: (source: string) => source,
    rejected: false,
    produced: undefined,
  },
  {
    case: "a changed source under the same name: compiled from the source, its code kept",
    second: (source: string) => source.replace("40", "41"),
    rejected: undefined,
    produced: true,
  },
])("$case", ({ second, rejected, produced }) => {
  const file = newFile();
  const source = "const base = 40; return base + 2;";
  const first = compile(source, file);
  expect(first.cachedDataProduced).toBe(true);
  expect(first()).toBe(42);

  const again = compile(second(source), file);
  expect(again.cachedDataRejected).toBe(rejected);
  expect(again.cachedDataProduced).toBe(produced);
  expect(again()).toBe(second(source) === source ? 42 : 43);
});

test("a caller that asks about cached data itself is left alone", () => {
  const file = newFile();
  const source = "return 7;";
  compile(source, file);
  const own = compile(source, file, { produceCachedData: false });
  expect(own.cachedDataRejected).toBeUndefined();
  expect(own.cachedDataProduced).toBeUndefined();
  expect(own()).toBe(7);
});

test("wrapping twice (a second copy of the module) keeps one wrapper", () => {
  const wrapped = vm.compileFunction;
  cacheCompiledCode();
  expect(vm.compileFunction).toBe(wrapped);
});
