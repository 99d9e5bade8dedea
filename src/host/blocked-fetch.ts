// A browser refuses to hand over the answer of a cross-origin service that does not allow
// the add-in's origin (CORS), and says only "Failed to fetch": the same words as for a
// service that is down. This wrapper names the likely cause and the fix (the add-in's
// own host relaying the calls, docs/deploy.md), so the pane and the cells can say it.
// Once a service has answered this page, its origin is allowed: a later answerless
// failure is the service or the network being down (an outage), and is left as it was so
// cells and the pane say "could not be reached" rather than blame CORS.
import type { FetchLike } from "../core/environment";

/** What browsers say when a fetch got no response at all (Chromium, Safari, Firefox). */
const NO_RESPONSE = /^(failed to fetch|load failed|networkerror when attempting to fetch resource\.?)$/i;

/** Kept short: a cell shows at most 255 characters, and this follows the address. */
export const CORS_HINT =
  "most likely CORS: the service refuses this add-in's origin; relay it with npm run serve -- --proxy-to, docs/deploy.md";

function originOf(input: string, pageOrigin: string): string | null {
  try {
    return new URL(input, pageOrigin).origin;
  } catch {
    return null;
  }
}

/** `fetchImpl`, whose answerless failures against another origin carry CORS_HINT. */
export function explainBlockedFetch(fetchImpl: FetchLike, pageOrigin: string): FetchLike {
  /** Origins whose answers this page could read: CORS lets them through. */
  const answered = new Set<string>();
  return async (input, init) => {
    const target = originOf(input, pageOrigin);
    try {
      const response = await fetchImpl(input, init);
      if (target !== null) answered.add(target);
      return response;
    } catch (error) {
      const answerless = error instanceof TypeError && NO_RESPONSE.test(error.message.trim());
      if (!answerless || target === null || target === pageOrigin || answered.has(target)) throw error;
      throw new TypeError(CORS_HINT, { cause: error });
    }
  };
}
