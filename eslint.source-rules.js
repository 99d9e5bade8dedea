// The repository's source rules (eslint/local-rules.js) as flat-config objects, included
// by eslint.config.js: facts about the code base that `npx eslint .` checks in every file.
const localRules = require("./eslint/local-rules");

const plugins = { pcd: localRules };

module.exports = [
  {
    // Tests and the benchmark must not depend on today's date.
    files: ["test/**/*.{ts,tsx}", "bench/**/*.ts"],
    plugins,
    rules: {
      "pcd/emulator-clock-pinned": "error",
      "pcd/cli-child-sets-pcd-now": "error",
    },
  },
  {
    // The emulator is the service, not the engine: its own parsing of the wire is its business.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/emulator/**"],
    plugins,
    rules: { "pcd/no-request-key-parsing": "error" },
  },
  {
    files: ["src/taskpane/**/*.tsx"],
    plugins,
    rules: { "pcd/message-bar-multiline": "error" },
  },
];
