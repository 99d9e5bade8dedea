// Golden files (test/golden): a generated text compared byte for byte with the committed
// one. UPDATE_GOLDEN=1 rewrites the file instead; a mismatch fails with Jest's line-by-line
// diff and says how to accept the change.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const GOLDEN_DIR = path.join(__dirname, "..", "golden");

/** Whether this run rewrites the golden files (UPDATE_GOLDEN=1). */
export const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === "1";

/**
 * Expects `actual` to equal test/golden/<name>, or writes it there with UPDATE_GOLDEN=1.
 * `what` names the generated text in the failure message ("functions.json").
 */
export function expectGolden(name: string, actual: string, what: string, rewrite: string): void {
  const file = path.join(GOLDEN_DIR, name);
  if (UPDATE_GOLDEN) writeFileSync(file, actual);
  const golden = readFileSync(file, "utf8");
  try {
    // Multi-line strings: Jest prints a line-by-line diff on mismatch.
    expect(actual).toBe(golden);
  } catch (error) {
    if (error instanceof Error) {
      error.message =
        `${what} differs from test/golden/${name} (- golden, + generated). If the change is ` +
        `intended, rewrite the golden file and commit it:\n  UPDATE_GOLDEN=1 ${rewrite}\n\n` +
        error.message;
    }
    throw error;
  }
}
