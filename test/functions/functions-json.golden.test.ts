// Golden file of functions.json: what Excel's autocomplete, argument hints and the manifest's
// functions page get from functions.ts's JSDoc. Any change to a name, description, argument
// or option shows here as a diff to review. UPDATE_GOLDEN=1 rewrites the file:
//   UPDATE_GOLDEN=1 npx jest test/functions/functions-json.golden.test.ts
import path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata/lib/generate";
import { expectGolden } from "../support/golden-file";

const ROOT = path.join(__dirname, "..", "..");

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
  expectGolden(
    "functions.json",
    await generatedFunctionsJson(),
    "functions.json",
    "npx jest test/functions/functions-json.golden.test.ts",
  );
});
