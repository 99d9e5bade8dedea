// One process at a time on a PGlite directory: the lock file names the holder; a lock left by a
// process that ended is taken over.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LOCK_FILE, lockDirectory } from "../../../src/gateway/database/directory-lock";

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "pcd-gateway-lock-"));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

// Above Linux's largest process id (2^22), so no process has it.
const ENDED_PROCESS = 2 ** 22 + 1;

test("locking creates the directory and a lock file naming this process; releasing removes it", () => {
  const directory = path.join(root, "new", "store");
  const release = lockDirectory(directory);
  expect(readFileSync(path.join(directory, LOCK_FILE), "utf8")).toBe(String(process.pid));
  release();
  expect(existsSync(path.join(directory, LOCK_FILE))).toBe(false);
  expect(existsSync(directory)).toBe(true);
});

test("a directory locked by a running process is refused with a message naming the process", () => {
  const release = lockDirectory(root);
  expect(() => lockDirectory(root)).toThrow(`in use by process ${process.pid}`);
  release();
  // Free again once released.
  lockDirectory(root)();
});

test("a lock left by a process that ended is taken over", () => {
  writeFileSync(path.join(root, LOCK_FILE), String(ENDED_PROCESS));
  const release = lockDirectory(root);
  expect(readFileSync(path.join(root, LOCK_FILE), "utf8")).toBe(String(process.pid));
  release();
});

test("releasing leaves alone a lock another process took over meanwhile", () => {
  const release = lockDirectory(root);
  writeFileSync(path.join(root, LOCK_FILE), String(ENDED_PROCESS));
  release();
  expect(readFileSync(path.join(root, LOCK_FILE), "utf8")).toBe(String(ENDED_PROCESS));
});
