// Fluent's MessageBar defaults to layout "auto": it starts on one line that does not wrap
// and switches to several lines only when a ResizeObserver sees its box change size. In a
// 320 px pane a message that grows after it is shown ("… It last answered at 14:02.")
// keeps the same box, so it never reflows and pushes the pane into horizontal scrolling
// (CI measured 441 px on the Status tab). Every message bar in the pane therefore asks for
// the multiline layout; this test reads the pane's sources and fails on one that does not.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { sourceFiles } from "../support/source-files";

const ROOT = join(__dirname, "..", "..");
const PANE = join(ROOT, "src", "taskpane");

/** The opening tags of MessageBar elements in a source text, attributes included. */
function messageBarTags(text: string): string[] {
  return [...text.matchAll(/<MessageBar(?=[\s>])[^>]*>/g)].map((match) => match[0]);
}

describe("message bars in the task pane wrap", () => {
  const files = sourceFiles(PANE, [".tsx"]);

  test.each([
    ["a bare tag", "<MessageBar>", 1],
    ["a tag with an intent", '<MessageBar intent="error">', 1],
    ["a tag over several lines", '<MessageBar\n  intent="warning"\n  role="alert"\n>', 1],
    ["the body is not a bar", "<MessageBarBody>text</MessageBarBody>", 0],
  ])("the reader finds %s", (_name, text, count) => {
    expect(messageBarTags(text)).toHaveLength(count);
  });

  test("the pane has message bars to check", () => {
    const tags = files.flatMap((file) => messageBarTags(readFileSync(file, "utf8")));
    expect(tags.length).toBeGreaterThan(10);
  });

  test("every message bar asks for the multiline layout", () => {
    const single = files.flatMap((file) =>
      messageBarTags(readFileSync(file, "utf8"))
        .filter((tag) => !/\blayout="multiline"/.test(tag))
        .map((tag) => `${relative(ROOT, file)}: ${tag.replace(/\s+/g, " ")}`),
    );
    expect(single).toEqual([]);
  });
});
