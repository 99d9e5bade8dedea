// `npm ci` must install cleanly (no EBADENGINE warning) on every Node version the project
// supports: each locked package's own engines range must cover the whole supported range
// declared in package.json.
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";

const root = path.resolve(__dirname, "../..");

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockedPackage>;
};

const supported = manifest.engines.node;

function lockedNodeRanges(): Array<[string, string]> {
  const ranges: Array<[string, string]> = [];
  for (const [location, locked] of Object.entries(lock.packages)) {
    const engines = locked.engines;
    if (location === "" || engines === undefined || Array.isArray(engines) || !engines.node) continue;
    ranges.push([`${location.replace(/^.*node_modules\//, "")}@${locked.version ?? "?"}`, engines.node]);
  }
  return ranges;
}

test("the supported Node range covers Node 20, 22 and 24", () => {
  expect(semver.validRange(supported)).not.toBeNull();
  for (const version of ["20.19.0", "22.13.0", "24.0.0"])
    expect(semver.satisfies(version, supported)).toBe(true);
});

test("no locked package excludes a supported Node version", () => {
  const ranges = lockedNodeRanges();
  expect(ranges.length).toBeGreaterThan(50); // the lockfile was read, not skipped
  const excluding = ranges
    .filter(([, range]) => !semver.subset(supported, range, { includePrerelease: false }))
    .map(([name, range]) => `${name} wants node ${range}`);
  expect(excluding).toEqual([]);
});
