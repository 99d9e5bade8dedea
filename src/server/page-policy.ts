// The task pane's content security policy, as webpack wrote it into taskpane.html's
// <meta http-equiv> (src/taskpane/taskpane.html): the server sends the same policy as a
// header, so there is one policy and it is the one the build made for this origin.
import { readFileSync } from "node:fs";
import path from "node:path";

const META_TAG = /<meta\b[^>]*>/gi;
const CSP_EQUIV = /\shttp-equiv\s*=\s*["']?content-security-policy["'\s>/]/i;
const CONTENT = /\scontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

/** The policy of the page's CSP <meta>, in either form html-webpack-plugin writes (minified or not). */
export function policyOfPage(html: string): string | null {
  for (const [tag] of html.matchAll(META_TAG)) {
    if (!CSP_EQUIV.test(tag)) continue;
    const content = CONTENT.exec(tag);
    const policy = content?.[1] ?? content?.[2];
    if (policy) return policy.replace(/\s+/g, " ").trim();
  }
  return null;
}

/** Throws when dist holds no built page (a missing build is said plainly, not served empty). */
export function readPagePolicy(dist: string): string {
  const page = path.join(dist, "taskpane.html");
  let html: string;
  try {
    html = readFileSync(page, "utf8");
  } catch {
    throw new Error(`${page} not found: build the add-in first (npm run build).`);
  }
  const policy = policyOfPage(html);
  if (policy === null) {
    throw new Error(`${page} carries no Content-Security-Policy: was it built by webpack.config.js?`);
  }
  return policy;
}
