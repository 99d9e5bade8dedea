// How Jest is started: `npm test` (scripts/run-tests.js) and each lane's script in package.json
// give node the same flags (scripts/jest-node-flags.js), which Jest's workers inherit.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
// A CommonJS script of the repository's own, without types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { JEST_NODE_FLAGS } = require("../../scripts/jest-node-flags") as { JEST_NODE_FLAGS: string[] };
const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};

const JEST = "node_modules/jest/bin/jest.js";

test.each(["unit", "integration", "browser"])(
  "npm run test:%s runs its lane with node's flags for Jest",
  (lane) => {
    expect(manifest.scripts[`test:${lane}`]).toBe(
      `node ${JEST_NODE_FLAGS.join(" ")} ${JEST} --selectProjects ${lane}`,
    );
  },
);

test("the lane scripts name Jest's own command", () => {
  expect(existsSync(path.join(ROOT, JEST))).toBe(true);
});
