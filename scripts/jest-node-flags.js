// Node's flags for Jest, which its workers inherit: `npm test` (scripts/run-tests.js) and
// package.json's lane scripts (`npm run test:unit` and the others) start Jest with them.
//
// `--liftoff-only`: V8 runs WebAssembly with its baseline compiler alone. The gateway tests open
// PGlite (Postgres compiled to WebAssembly) dozens of times, each test file in a module registry
// of its own, and V8's optimising compiler, tiering up PGlite's hot functions on background
// threads, cost more than it saved: the integration lane measured 239 and 248 CPU-seconds with
// it against 269 and 277 without, back to back; the unit lane, which opens PGlite rarely, the
// same either way. It changes how fast, not what, the code computes.
const JEST_NODE_FLAGS = ["--liftoff-only"];

module.exports = { JEST_NODE_FLAGS };
