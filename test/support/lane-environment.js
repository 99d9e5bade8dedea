// The test environment of every lane (jest.config.js): Node's, and at the end of each test file
// it disables the AsyncLocalStorage instances enabled while the file ran.
//
// Why: Jest's test runner (jest-circus) creates an AsyncLocalStorage for each test file and runs
// every test and hook in it, and never disables it. Before Node's AsyncContextFrame (the default
// from Node 24), an enabled instance stays in a list that Node walks for every promise and other
// asynchronous resource the process creates, storing the instance's value on each. A worker that
// had run a hundred files paid a hundred steps for every promise of the next file: in one unit
// lane run in a single process, that walk was about a seventh of the CPU time. Disabled at the
// file's end, an instance leaves that list; one a later file uses again (Playwright's, loaded
// once per worker) is enabled again by its next `run`.
"use strict";
const { AsyncLocalStorage } = require("node:async_hooks");
const path = require("node:path");
const { setImmediate } = require("node:timers");
const { TestEnvironment } = require("jest-environment-node");
const { cacheCompiledCode } = require("./compile-cache");

// The lanes' workers load this module before any test file: their modules compile from V8's
// code cache from the second file on (./compile-cache.js).
cacheCompiledCode();

/**
 * The instances enabled in this worker since the last test file ended. Kept on the class Node
 * shares with every module registry of the worker, and its methods wrapped once, so that a copy
 * of this module a test file loads records into the same set instead of wrapping them again.
 */
const ENABLED_STORAGES = Symbol.for("pcd.lane-environment.enabled-storages");

/** Records each instance that enables itself: `run` and `enterWith` are the public ways. */
function enabledStorages() {
  const prototype = AsyncLocalStorage.prototype;
  if (prototype[ENABLED_STORAGES] === undefined) {
    const enabled = new Set();
    Object.defineProperty(prototype, ENABLED_STORAGES, { value: enabled });
    for (const method of ["run", "enterWith"]) {
      const original = prototype[method];
      prototype[method] = function recordedEnable(...args) {
        enabled.add(this);
        return original.apply(this, args);
      };
    }
  }
  return prototype[ENABLED_STORAGES];
}

const enabled = enabledStorages();

/** jest-worker's message telling a worker that the run is over. */
const JEST_WORKER_END = 2;
/** The resources of a worker with nothing left to do: its channel to Jest and its output pipes. */
const IDLE_RESOURCES = new Set(["PipeWrap", "TTYWrap"]);

/** Whether nothing but the worker's own pipes keeps its event loop alive. */
function nothingLeftToDo(resources) {
  return resources.every((resource) => IDLE_RESOURCES.has(resource));
}

/** Where the worker keeps the path of the test file it ran last (one slot per process). */
const LAST_TEST_FILE = Symbol.for("pcd.lane-environment.last-test-file");

/** Notes the test file the worker runs now, for the message below. */
function noteTestFile(testPath) {
  process[LAST_TEST_FILE] = testPath;
}

/**
 * What a worker that cannot end says: Jest's own message ("A worker process has failed to exit
 * gracefully") names neither what is left nor where it came from.
 */
function leftBehindMessage(resources, lastTestFile) {
  const counts = new Map();
  for (const resource of resources) {
    if (!IDLE_RESOURCES.has(resource)) counts.set(resource, (counts.get(resource) ?? 0) + 1);
  }
  const held = [...counts].map(([resource, count]) => `${resource} x${count}`).join(", ");
  const file = lastTestFile === undefined ? "none" : path.relative(process.cwd(), lastTestFile);
  return (
    `PCD test lanes: a Jest worker still holds ${held} after the run (Jest stops it by force ` +
    `if that keeps it past half a second). The last test file it ran: ${file}; that file, or ` +
    "one before it in this worker, left a timer, a socket or a process behind.\n"
  );
}

/**
 * A worker with nothing left to do ends at once when the run is over. Left to end by itself, it
 * tears down its heap first, a few hundred MB after a lane's files, which took longer than the
 * half second Jest waits ("A worker process has failed to exit gracefully"). A worker that still
 * has a timer, a socket or a child process is left alone, so Jest still reports such a leak, and
 * it says what it holds and which file it ran last.
 */
function endWhenJestDoes() {
  const ENDS = Symbol.for("pcd.lane-environment.ends-with-jest");
  if (typeof process.send !== "function" || process[ENDS]) return;
  process[ENDS] = true;
  process.on("message", (message) => {
    if (!Array.isArray(message) || message[0] !== JEST_WORKER_END) return;
    // Run after jest-worker's own handler has ended its part: by then only the pipes should be left.
    setImmediate(() => {
      const resources = process.getActiveResourcesInfo();
      if (!nothingLeftToDo(resources)) {
        process.stderr.write(leftBehindMessage(resources, process[LAST_TEST_FILE]));
        return;
      }
      // Once what the worker wrote has left (an exit cuts output still on its way in a pipe).
      process.exitCode = 0;
      process.stdout.write("", () => process.stderr.write("", () => process.exit()));
    });
  });
}

endWhenJestDoes();

class LaneEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    noteTestFile(context.testPath);
  }

  async teardown() {
    for (const storage of enabled) storage.disable();
    enabled.clear();
    await super.teardown();
  }
}

LaneEnvironment.nothingLeftToDo = nothingLeftToDo;
LaneEnvironment.noteTestFile = noteTestFile;

module.exports = LaneEnvironment;
