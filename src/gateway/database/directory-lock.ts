// PGlite does not lock its directory, and two processes writing one directory corrupt it (a
// gateway running while `user add` opens the same folder, say). A lock file naming the process
// that holds the directory makes the second opener stop with a message instead.
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from "node:fs";
import path from "node:path";

export const LOCK_FILE = "pcd-gateway.lock";

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Creates the directory if missing and locks it to this process; returns the release. */
export function lockDirectory(directory: string): () => void {
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, LOCK_FILE);
  const mine = String(process.pid);
  for (;;) {
    try {
      const descriptor = openSync(file, "wx");
      writeFileSync(descriptor, mine);
      closeSync(descriptor);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readFileSync(file, "utf8"), 10);
      if (Number.isInteger(holder) && isRunning(holder)) {
        throw new Error(
          `The database directory ${directory} is in use by process ${holder}: PGlite serves one process ` +
            `at a time, so stop that process first (or delete ${file} if no such process runs).`,
        );
      }
      // Left by a process that ended without closing the database.
      rmSync(file, { force: true });
    }
  }
  return () => {
    try {
      if (readFileSync(file, "utf8") === mine) rmSync(file, { force: true });
    } catch {
      // Already gone: nothing to release.
    }
  };
}
