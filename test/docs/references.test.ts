// The repository explains itself (docs/decisions.md D29): every tracked text file cites
// only files inside the repository (no tracker number, no commit hash), and every
// `docs/service.md §N` or `docs/decisions.md DN` it cites exists as a heading there.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
const THIS_FILE = path.relative(ROOT, __filename).split(path.sep).join("/");

const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|json|md|html|css|xml|yml|yaml|sh|txt)$/i;
/** Generated or vendored text that no one writes references into. */
const SKIPPED = new Set(["package-lock.json", THIS_FILE]);

/**
 * References to what is not in the repository (other documents, tracker entries, commits), each
 * with what it points to. A reference with `inProse` is looked for only outside quoted text, where
 * test data (hex keys, tokens) lives.
 */
const OUTSIDE_REFERENCES: ReadonlyArray<{ what: string; pattern: RegExp; inProse?: true }> = [
  { what: "a path into ../shared", pattern: /(^|[^\w-])(\.\.\/)*shared\/(spec|notes)\b|\.\.\/shared\// },
  { what: "an absolute /work path", pattern: /\/work\// },
  { what: "the field notes", pattern: /\bfield[- ]notes?\b/i },
  { what: "design.md", pattern: /\bdesign\.md\b/i },
  { what: "service-spec.md", pattern: /\bservice-spec\.md\b/i },
  { what: "toolchain.md", pattern: /\btoolchain\.md\b/i },
  { what: 'a numbered "spec" section', pattern: /\bspec(ification)?('s)?\s+(section\s+|§\s*)?\d/i },
  { what: 'a numbered "spec" section', pattern: /\bthe spec\s*\(\d/i },
  { what: "a lead decision", pattern: /\blead decisions?\b/i },
  { what: "a tracker number", pattern: /\b(issues?|tickets?|trackers?|pull requests?)\s+#?\d/i },
  { what: "a tracker number", pattern: /\(#\d+\)/ },
  { what: "a commit hash", pattern: /\bcommits?\s+[0-9a-f]{7,40}\b/i },
  {
    // 7 to 40 hex digits, a letter and a digit among them, standing alone: not a colour (#),
    // a bundle's content hash (name.hash.js), a UUID's group or part of a word.
    what: "a commit hash",
    pattern: /(?<![\w#.\-/])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w\-/]|\.\w)/,
    inProse: true,
  },
];

/** The line without its quoted text ("…", `…`, and '…' not inside a word): test data, not prose. */
function prose(line: string): string {
  return line.replace(/"(?:[^"\\]|\\.)*"|`[^`]*`|(?<!\w)'(?:[^'\\]|\\.)*'(?!\w)/g, '""');
}

function outsideReferences(text: string): string[] {
  const found = OUTSIDE_REFERENCES.filter(({ pattern, inProse }) =>
    pattern.test(inProse === true ? prose(text) : text),
  ).map(({ what }) => what);
  return [...new Set(found)];
}

const SERVICE_CITATION = /docs\/service\.md((?:[\s,;]*(?:and\s+|-)?§\d+(?:\.\d+)?)+)/g;
const DECISION_CITATION = /docs\/decisions\.md((?:[\s,;]*(?:and\s+|-)?D\d+)+)/g;

/** Every section a line cites in docs/service.md ("§4.2-§4.5, §4.7" names 4.2, 4.5, 4.7). */
/** The first capture group of every match of a global pattern. */
function captures(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[1] ?? "");
}

function citedSections(line: string): string[] {
  return [...line.matchAll(SERVICE_CITATION)].flatMap((m) => captures(m[1] ?? "", /§(\d+(?:\.\d+)?)/g));
}

function citedDecisions(line: string): string[] {
  return [...line.matchAll(DECISION_CITATION)].flatMap((m) => captures(m[1] ?? "", /D(\d+)/g));
}

function headings(file: string, pattern: RegExp): Set<string> {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return new Set(captures(text, pattern));
}

function trackedTextFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\0").filter((file) => TEXT_FILE.test(file) && !SKIPPED.has(file));
}

describe("the reference detector", () => {
  test.each([
    ["see ../shared/notes/toolchain.md, trap 3", true],
    ["the product contract in shared/spec/service-spec.md", true],
    ["points to /work/shared/design.md", true],
    ["(field notes: extra fields occur)", true],
    ["Field-notes variants", true],
    ["the architecture rules of design.md section 4", true],
    ["segment of spec 4.6:", true],
    ["Spec section 5: a token", true],
    ["the spec's section 8", true],
    ["by the spec (2.2)", true],
    ["(lead decision 9: precompute)", true],
    ["segment of docs/service.md §4.6:", false],
    ["--shape spec gives the letter", false],
    ["the spec shape writes n/a", false],
    ["src/host/shared-engine.ts", false],
    ["docs/decisions.md D21", false],
    ["// Faults between the two parts (issue 12, item 5).", true],
    ["the workloads of issue #12", true],
    ["Issues 7 and 8 asked for it", true],
    ["refresh-all packing (#12)", true],
    ["the numbers of tracker 12", true],
    ["`src/core/catalog.ts`: same cap (commit 44ffc83)", true],
    ["fixed in 93d5961, with its test", true],
    ["| F7 | the catalog is kept (ebebae7) |", true],
    ["the full hash 0f60989e1d2c3b4a5f60718293a4b5c6d7e8f901 of it", true],
    ["color: #1f1f1f;", false],
    ["border: 1px solid #333;", false],
    ["taskpane-app.0d66b012.js, 584.70d5b2ae.js", false],
    ["id: 123e4567-e89b-12d3-a456-426614174000", false],
    ['["a hex key", "signing key 3f9a0c77d1e24b5a9c0e rejected"],', false],
    ["const token = `Bearer ab12cd34ef56ab78`;", false],
    ['=PCD.ESCALATE(12500000, "2024-01")', false],
    ["a cell of 1234567 formulas, and deadbeef", false],
    ["the issue of a stale value, ticketed as worth fixing", false],
    ["F9 / Ctrl+Alt+F9 are never needed", false],
  ])("%s -> outside reference: %s", (text, expected) => {
    expect(outsideReferences(text).length > 0).toBe(expected);
  });

  test.each([
    ["(docs/service.md §4.2-§4.5 and the sandbox variants of §4.7)", ["4.2", "4.5"]],
    ["(docs/service.md §2.2, §4.3, §4.4, §4.6, §4.7)", ["2.2", "4.3", "4.4", "4.6", "4.7"]],
    ["(docs/service.md §4.1 and §5)", ["4.1", "5"]],
    ["(docs/service.md §8.2, rules 1-4)", ["8.2"]],
    ["no citation §3 here", []],
  ])("%s cites service sections %j", (line, expected) => {
    expect(citedSections(line)).toEqual(expected);
  });

  test.each([
    ["docs/decisions.md D24 and D25", ["24", "25"]],
    ["(docs/decisions.md D5)", ["5"]],
    ["D5 alone", []],
  ])("%s cites decisions %j", (line, expected) => {
    expect(citedDecisions(line)).toEqual(expected);
  });
});

describe("the repository's tracked text files", () => {
  const files = trackedTextFiles();
  const sections = headings("docs/service.md", /^#{2,4} §(\d+(?:\.\d+)?)\s/gm);
  const decisions = headings("docs/decisions.md", /^#{2,4} D(\d+)\s/gm);

  test("are found, and the two documents have their headings", () => {
    expect(files).toContain("docs/service.md");
    expect(files.length).toBeGreaterThan(100);
    expect(sections.has("4.6")).toBe(true);
    expect(decisions.has("1")).toBe(true);
  });

  test("cite no document outside the repository", () => {
    const found: string[] = [];
    for (const file of files) {
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, index) => {
          for (const what of outsideReferences(line))
            found.push(`${file}:${index + 1}: ${what}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  test("cite only sections of docs/service.md and decisions of docs/decisions.md that exist", () => {
    const missing: string[] = [];
    for (const file of files) {
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, index) => {
          const where = `${file}:${index + 1}`;
          // docs/service.md cites its own sections bare: "(§6.5)".
          const cited =
            file === "docs/service.md" ? captures(line, /§(\d+(?:\.\d+)?)/g) : citedSections(line);
          for (const section of cited) {
            if (!sections.has(section)) missing.push(`${where}: docs/service.md §${section}`);
          }
          for (const decision of citedDecisions(line)) {
            if (!decisions.has(decision)) missing.push(`${where}: docs/decisions.md D${decision}`);
          }
        });
    }
    expect(missing).toEqual([]);
  });
});
