// The browser lane builds the add-in and the component harness once per run (its global setup,
// test/e2e/support/global-setup.ts): each browser test file finds them through the environment
// instead of building its own, and removing a file's use leaves the shared build in place.
import { existsSync } from "node:fs";
import path from "node:path";
import { SHARED_BUILD_VARIABLES, testBuild } from "../support/shared-builds";

test.each([
  ["addin", ["preview.html", "taskpane.html", "functions.json", "office-js/office.js"]],
  ["harness", ["index.html", "harness.js"]],
] as const)("the run's %s build is shared, with its pages", async (name, files) => {
  const shared = process.env[SHARED_BUILD_VARIABLES[name]];
  expect(shared).toBeTruthy();
  const build = await testBuild(name);
  expect(build.folder).toBe(shared);
  expect(files.filter((file) => !existsSync(path.join(build.folder, file)))).toEqual([]);
  build.release();
  expect(existsSync(build.folder)).toBe(true);
});

test("a shared build that has gone is an error, not a silent second build", async () => {
  const variable = SHARED_BUILD_VARIABLES.addin;
  const shared = process.env[variable];
  process.env[variable] = path.join(shared ?? "", "gone");
  try {
    await expect(testBuild("addin")).rejects.toThrow(`${variable} names ${shared}`);
  } finally {
    process.env[variable] = shared;
  }
});
