// `npm run check:manifest`: runs the offline manifest check on the repository's files.
import { existsSync, readFileSync } from "node:fs";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { checkManifest, type FunctionsMetadata } from "./manifest-check";

export async function checkRepositoryManifest(
  root = process.cwd(),
  manifestXml?: string,
  shortcutsJson?: string,
): Promise<string[]> {
  const shortcutsFile = `${root}/assets/shortcuts.json`;
  const generated = await generateCustomFunctionsMetadata(`${root}/src/functions/functions.ts`);
  if (generated.errors.length > 0) return generated.errors.map((error) => `functions.ts: ${error}`);
  return checkManifest({
    manifestXml: manifestXml ?? readFileSync(`${root}/manifest.xml`, "utf8"),
    functionsMetadata: JSON.parse(generated.metadataJson) as FunctionsMetadata,
    associatedIds: generated.associate.map((entry) => entry.id),
    commandsSource: readFileSync(`${root}/src/commands/commands.ts`, "utf8"),
    shortcutsJson: shortcutsJson ?? (existsSync(shortcutsFile) ? readFileSync(shortcutsFile, "utf8") : null),
  });
}

if (require.main === module) {
  void checkRepositoryManifest().then((problems) => {
    for (const problem of problems) console.error(`manifest: ${problem}`);
    console.log(problems.length === 0 ? "manifest.xml: consistent" : `${problems.length} problem(s)`);
    process.exitCode = problems.length === 0 ? 0 : 1;
  });
}
