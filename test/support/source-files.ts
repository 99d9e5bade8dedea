// The files under a folder whose names end with one of `extensions`, for tests that read
// the repository's own sources (rule tests); folders named in `skip` are left out.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export function sourceFiles(
  directory: string,
  extensions: readonly string[],
  skip: readonly string[] = [],
): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return skip.includes(name) ? [] : sourceFiles(path, extensions, skip);
    return extensions.some((extension) => name.endsWith(extension)) ? [path] : [];
  });
}
