// The help page (help.html, each function's helpUrl) states the rules a formula is refused
// by, in the section of that function, so a person who reads a #VALUE! there finds why.
import { readFileSync } from "node:fs";
import path from "node:path";

const HELP = readFileSync(path.resolve(__dirname, "../../src/taskpane/help.html"), "utf8");

/** The text of the section whose heading has this id, tags removed, whitespace collapsed. */
function section(id: string): string {
  const start = HELP.indexOf(`<h2 id="${id}">`);
  if (start < 0) throw new Error(`help.html has no section "${id}"`);
  const end = HELP.indexOf("<h2", start + 1);
  return HELP.slice(start, end < 0 ? undefined : end)
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

test.each<[string, RegExp]>([
  ["relocate", /Both factors must be relative to the same base location/],
  ["relocate", /refuses two factors on different bases with #VALUE!/],
  ["relocate", /names the factors of the same two locations on a common base/],
])("the %s section says %s", (id, rule) => {
  expect(section(id)).toMatch(rule);
});
