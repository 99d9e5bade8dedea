// V8's code cache for the modules a Jest worker compiles again for each test file.
//
// Why: Jest gives every test file a module registry of its own, so a worker compiles the same
// module's code (the engine, Fluent, fastify) once for every file that loads it, through
// `vm.compileFunction`. Compiling the same source with the code V8 produced the first time
// skips parsing it again; in a unit lane run in one process, compiling took about a sixth of the
// CPU time. The cache is V8's own data, keyed here by the exact source and file name, kept in
// the worker's memory only (nothing is written to disk); V8 checks it and compiles from the
// source when it does not fit.
"use strict";
const vm = require("node:vm");

const WRAPPED = Symbol.for("pcd.compile-cache.wrapped");

/** Wraps `vm.compileFunction` once per worker to hand V8 the code it produced before. */
function cacheCompiledCode() {
  if (vm.compileFunction[WRAPPED]) return;
  const compileFunction = vm.compileFunction;
  /** Code cache by file name, with the source it was produced from. */
  const produced = new Map();
  const cachedCompile = function cachedCompile(code, params, options = {}) {
    // A caller that brings or asks for cached data of its own is left alone.
    if (options.cachedData !== undefined || options.produceCachedData !== undefined) {
      return compileFunction(code, params, options);
    }
    const key = options.filename ?? "";
    const earlier = produced.get(key);
    if (earlier !== undefined && earlier.code === code) {
      return compileFunction(code, params, { ...options, cachedData: earlier.data });
    }
    const compiled = compileFunction(code, params, { ...options, produceCachedData: true });
    if (compiled.cachedDataProduced && compiled.cachedData) {
      // A copy made here: V8 hands the data back as a buffer of the test file's own realm
      // (Jest's parsing context), and keeping that buffer would keep the whole realm, the file's
      // modules and their data, alive for as long as the worker runs.
      produced.set(key, { code, data: new Uint8Array(compiled.cachedData) });
    }
    return compiled;
  };
  cachedCompile[WRAPPED] = true;
  vm.compileFunction = cachedCompile;
}

module.exports = { cacheCompiledCode };
