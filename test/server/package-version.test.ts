import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { packageVersion } from "../../src/server/package-version";

// The server finds its version from src/server (tsx) and from dist-server/src/server (built).
let checkout: string;

beforeAll(() => {
  checkout = mkdtempSync(path.join(tmpdir(), "pcd-version-"));
  writeFileSync(path.join(checkout, "package.json"), JSON.stringify({ name: "pcd", version: "1.2.3" }));
  mkdirSync(path.join(checkout, "dist-server/src/server"), { recursive: true });
  mkdirSync(path.join(checkout, "src/server"), { recursive: true });
});

afterAll(() => rmSync(checkout, { recursive: true, force: true }));

test.each([["src/server"], ["dist-server/src/server"], ["."]])(
  "from %s it is the checkout's package.json version",
  (folder) => {
    expect(packageVersion(path.join(checkout, folder))).toBe("1.2.3");
  },
);

test("with no package.json above it, it says where it looked", () => {
  expect(() => packageVersion(path.parse(checkout).root)).toThrow(/no package.json with a version above/);
});
