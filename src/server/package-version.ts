// The version /healthz reports, from the package.json of the checkout the server runs in.
// Looked up by walking up from this file: it runs from src/server under tsx and from
// dist-server/src/server once built, and both sit below that package.json.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export function packageVersion(from: string = __dirname): string {
  for (let folder = path.resolve(from); ; folder = path.dirname(folder)) {
    const file = path.join(folder, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown };
      if (typeof manifest.version === "string") return manifest.version;
    }
    if (path.dirname(folder) === folder) {
      throw new Error(`no package.json with a version above ${from}: start the server from its checkout`);
    }
  }
}
