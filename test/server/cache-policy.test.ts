import { cacheControlFor, IMMUTABLE, REVALIDATE } from "../../src/server/cache-policy";

test.each([
  ["/srv/dist/taskpane-app.0d66b012.js", IMMUTABLE],
  ["/srv/dist/854.096c261b.js", IMMUTABLE],
  ["/srv/dist/854.096c261b.js.map", IMMUTABLE],
  ["/srv/dist/taskpane.html", REVALIDATE],
  ["/srv/dist/functions.json", REVALIDATE],
  ["/srv/dist/manifest.xml", REVALIDATE],
  // Named by the manifest under a fixed name: must be seen new after a deployment.
  ["/srv/dist/functions.js", REVALIDATE],
  ["/srv/dist/runtime.js", REVALIDATE],
  ["/srv/dist/assets/icon-16.png", REVALIDATE],
])("%s: %s", (file, expected) => {
  expect(cacheControlFor(file)).toBe(expected);
});
