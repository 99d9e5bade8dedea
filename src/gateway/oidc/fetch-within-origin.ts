// The issuer's documents are read without following a redirect to another origin: a redirect
// elsewhere could hand the gateway keys that are not the issuer's.
const MAX_REDIRECTS = 3;

export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

export class CrossOriginRedirect extends Error {}

/** How long reading an issuer's document may take, redirects included. */
export const ISSUER_READ_TIMEOUT_MS = 10_000;

/**
 * GET `url`, following at most three redirects, each to the same origin as `url`, within
 * `timeoutMs` in all (an issuer that accepts connections and never answers would otherwise hold
 * every request that waits on it).
 */
export async function fetchWithinOrigin(
  fetchFunction: FetchFunction,
  url: string,
  timeoutMs = ISSUER_READ_TIMEOUT_MS,
): Promise<Response> {
  const origin = new URL(url).origin;
  const signal = AbortSignal.timeout(timeoutMs);
  let next = url;
  for (let redirects = 0; ; redirects += 1) {
    const response = await fetchFunction(next, {
      redirect: "manual",
      headers: { accept: "application/json" },
      signal,
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) return response;
    const target = new URL(location, next);
    if (target.origin !== origin) {
      throw new CrossOriginRedirect(`${next} redirects to another origin (${target.origin}), not followed`);
    }
    if (redirects === MAX_REDIRECTS)
      throw new CrossOriginRedirect(`${url} redirects more than ${MAX_REDIRECTS} times`);
    next = target.href;
  }
}
