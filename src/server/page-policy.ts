// The task pane's content security policy, as webpack wrote it into taskpane.html's
// <meta http-equiv> (src/taskpane/taskpane.html): the server sends the same policy as a
// header, so there is one policy and it is the one the build made for this origin.
import { readFileSync } from "node:fs";
import path from "node:path";

const META_CSP = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i;

/** Throws when dist holds no built page (a missing build is said plainly, not served empty). */
export function readPagePolicy(dist: string): string {
  const page = path.join(dist, "taskpane.html");
  let html: string;
  try {
    html = readFileSync(page, "utf8");
  } catch {
    throw new Error(`${page} not found: build the add-in first (npm run build).`);
  }
  const match = META_CSP.exec(html);
  if (!match?.[1])
    throw new Error(`${page} carries no Content-Security-Policy: was it built by webpack.config.js?`);
  return match[1].replace(/\s+/g, " ").trim();
}
