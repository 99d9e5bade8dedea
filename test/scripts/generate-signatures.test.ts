// The functions' parameters reach workbook code through a generated file: it must be what the
// generator writes from src/functions/functions.ts now, and it follows what functions.ts declares.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FUNCTIONS_FILE, committedSignatures, signaturesSource } from "../../scripts/generate-signatures";

const ROOT = path.join(__dirname, "..", "..");

test("src/workbook/pcd-signatures.generated.ts is what the generator writes from functions.ts", async () => {
  const generated = await signaturesSource(ROOT);
  const committed = committedSignatures(ROOT);
  if (committed !== generated) {
    throw new Error(
      "src/workbook/pcd-signatures.generated.ts is not what src/functions/functions.ts declares now: run npm run generate:signatures",
    );
  }
});

test.each<[string, string, string[]]>([
  [
    "a required number and an optional text",
    "amount: number, code: unknown",
    ['{ name: "amount", type: "number", optional: false }', '{ name: "code", type: "any", optional: true }'],
  ],
  ["no parameters", "", ["DOUBLE: []"]],
])("the generator reads functions.ts' JSDoc: %s", async (_name, parameters, expected) => {
  const root = mkdtempSync(path.join(tmpdir(), "pcd-signatures-"));
  try {
    const params = parameters === "" ? "" : " * @param amount The amount.\n * @param [code] A code.\n";
    mkdirSync(path.join(root, path.dirname(FUNCTIONS_FILE)), { recursive: true });
    writeFileSync(
      path.join(root, FUNCTIONS_FILE),
      `/**\n * Doubles.\n * @customfunction DOUBLE\n${params} */\nexport function double(${parameters}): number {\n  return 2;\n}\n`,
    );
    const generated = await signaturesSource(root);
    for (const text of expected) expect(generated).toContain(text);
    expect(generated).not.toContain("VALUES");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
