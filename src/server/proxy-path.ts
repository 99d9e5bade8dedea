// What may follow /service/ in a relayed request: plain path segments only. A dot
// segment (also percent-encoded), an encoded slash or backslash, an empty segment (which
// would make //host; one trailing slash is fine) or an undecodable escape is refused before anything is sent, so a
// request can only reach the configured upstream, at or below its path.
const SEGMENT_FORBIDDEN = /[/\\]/;

/** `rest`: the raw path after the /service prefix, query excluded ("" or "/a/b"). */
export function isSafeProxyPath(rest: string): boolean {
  if (rest === "" || rest === "/") return true;
  if (!rest.startsWith("/")) return false;
  const segments = rest.slice(1).split("/");
  if (segments.at(-1) === "") segments.pop(); // one trailing slash is a plain path
  for (const raw of segments) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return false;
    }
    if (segment === "" || segment === "." || segment === ".." || SEGMENT_FORBIDDEN.test(segment))
      return false;
  }
  return true;
}
