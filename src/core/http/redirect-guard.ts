// Credentials never follow a redirect to another origin. Every call that carries the
// password (sign-in) or the access token (data calls) goes through here: fetch runs with
// `redirect: "manual"`, a redirect within the same origin (scheme, host and port) is
// followed by hand with the same request, and any other redirect ends the call with a
// message instead. Without this, fetch would re-send a 307/308 POST with the password to
// wherever the service points, also from https to plain http.
//
// The runtimes differ on "manual": Node's fetch (undici) hands back the 3xx answer with
// its Location header; a browser hands back an "opaqueredirect" answer with status 0 and
// no headers, so the target cannot be known there and the redirect is refused as such.
import type { FetchLike } from "../environment";
import { PcdError } from "../errors";

/** Same-origin hops followed before giving up (a loop on one origin ends too). */
export const MAX_SAME_ORIGIN_REDIRECTS = 5;

export interface RedirectContext {
  /** What the call does, for the message: "the sign-in", "the Series Values call". */
  what: string;
  /** The credential the call carries, for the message: "your password", "your access token". */
  credential: string;
  /** Which setting holds the address, for the message. */
  setting: string;
}

function isRedirectStatus(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The origin of an address, or null when it is not an absolute URL. */
function originOf(address: string, base?: string): string | null {
  try {
    const url = new URL(address, base);
    // "null" is the origin of opaque schemes (data:, javascript:, file: in Node).
    return url.origin === "null" ? `${url.protocol}` : url.origin;
  } catch {
    return null;
  }
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function refused(context: RedirectContext, target: string): PcdError {
  return new PcdError(
    "protocol",
    `The service redirected ${context.what} to another address (${target}); PCD does not send ` +
      `${context.credential} there. Check ${context.setting} in the settings (Advanced in the task pane).`,
  );
}

/**
 * fetch(url, init), following redirects only within the origin of `url`. `init.body` must
 * be re-sendable (a string or nothing), as it is for every call PCD makes.
 */
export async function fetchWithoutCrossOriginRedirect(
  fetch: FetchLike,
  url: string,
  init: RequestInit,
  context: RedirectContext,
): Promise<Response> {
  const origin = originOf(url);
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, { ...init, redirect: "manual" });
    if (response.type === "opaqueredirect") {
      // A browser: the redirect happened, but where to is not disclosed to the page.
      await discard(response);
      throw refused(context, "an address the browser does not disclose");
    }
    if (!isRedirectStatus(response.status)) return response;
    const location = response.headers.get("Location");
    await discard(response);
    if (location === null) {
      throw new PcdError(
        "protocol",
        `The service answered ${context.what} with a redirect (HTTP ${response.status}) that names no address.`,
        { status: response.status },
      );
    }
    const target = originOf(location, current);
    if (target === null || origin === null || target !== origin) {
      throw refused(context, target ?? "an address that is not valid");
    }
    if (hop >= MAX_SAME_ORIGIN_REDIRECTS) {
      throw new PcdError(
        "protocol",
        `The service redirected ${context.what} more than ${MAX_SAME_ORIGIN_REDIRECTS} times within ${origin}; PCD stopped following.`,
        { status: response.status },
      );
    }
    current = new URL(location, current).href;
  }
}
