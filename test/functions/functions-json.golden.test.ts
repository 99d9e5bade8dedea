// Golden file of functions.json: what Excel's autocomplete, argument hints and the manifest's
// functions page get from functions.ts's JSDoc. Any change to a name, description, argument
// or option shows here as a diff to review. UPDATE_GOLDEN=1 rewrites the file:
//   UPDATE_GOLDEN=1 npx jest test/functions/functions-json.golden.test.ts
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata/lib/generate";

const ROOT = path.join(__dirname, "..", "..");
const GOLDEN = path.join(ROOT, "test", "golden", "functions.json");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

/**
 * functions.json as the metadata plugin generates it, written as JSON.stringify writes it
 * (test/golden is outside Prettier's reach: a golden file is compared byte for byte).
 */
async function generatedFunctionsJson(): Promise<string> {
  const generated = await generateCustomFunctionsMetadata([
    path.join(ROOT, "src", "functions", "functions.ts"),
  ]);
  expect(generated.errors).toEqual([]);
  return `${JSON.stringify(JSON.parse(generated.metadataJson), null, 2)}\n`;
}

test("functions.json matches test/golden/functions.json", async () => {
  const actual = await generatedFunctionsJson();
  if (UPDATE) writeFileSync(GOLDEN, actual);
  const golden = readFileSync(GOLDEN, "utf8");
  try {
    // Multi-line strings: Jest prints a line-by-line diff on mismatch.
    expect(actual).toBe(golden);
  } catch (error) {
    if (error instanceof Error) {
      error.message =
        "functions.json differs from test/golden/functions.json (- golden, + generated). If the change " +
        "is intended, rewrite the golden file with UPDATE_GOLDEN=1 and commit it.\n\n" +
        error.message;
    }
    throw error;
  }
});
