// The Access Token request (docs/service.md §5) and the expiry read from its answer. Only
// a sign-in or a renewal asks for a token, and both come after Excel has started (the
// password is never stored, so no session outlives the runtime): this code loads with the
// first sign-in in a chunk of its own (auth.ts), not with the functions runtime at start.
import type { EngineSettings, ServiceState } from "./engine-api";
import type { Clock, FetchLike, Logger } from "./environment";
import { errorMessage, PcdError } from "./errors";
import { classifyFetchRejection } from "./http/fetch-rejection";
import { GATEWAY_REFUSAL_HEADER, memberBlocked } from "./http/gateway-refusal-header";
import { classifyHttpFailure } from "./http/http-failure";
import { accessTokenUrl } from "./http/paths";
import { MAX_ANSWER_NESTING, nestsDeeperThan } from "./http/json-depth";
import { readCapped } from "./http/read-capped";
import { fetchWithoutCrossOriginRedirect } from "./http/redirect-guard";
import { parseRetryAfter } from "./http/retry-after";
import { redactDetails, redactSecrets } from "./http/server-message";
import { gatewayOf, jwtClaims, type GatewaySession } from "./jwt-claims";
import { serviceState } from "./schedule";
import { ENGINE_DEFAULTS } from "./defaults";
import { realScheduler, type Scheduler } from "./scheduler";
import { tokenExpiry } from "./token-expiry";

/** docs/service.md §5: a token lives 2 hours (used when the JWT carries no exp). */
export const TOKEN_LIFETIME_MS = ENGINE_DEFAULTS.tokenLifetimeMs;
/** The largest token answer read (a JWT in a small JSON object is a few kilobytes). */
export const MAX_TOKEN_ANSWER_BYTES = 1024 * 1024;

export type TokenPurpose = "sign-in" | "renewal";

export interface TokenRequestDeps {
  fetch: FetchLike;
  clock: Clock;
  /** The request's timeout timer, like the data calls' (default: the real setTimeout). */
  scheduler?: Scheduler;
  log?: Logger;
  /** The engine's view of the service (service-client-impl.ts); default: the calendar alone. */
  serviceState?: () => ServiceState;
}

export interface TokenRequest {
  username: string;
  password: string;
  settings: EngineSettings;
  purpose: TokenPurpose;
  /** A renewal of a team gateway's token: its refusals are the gateway's (blocked, not a wrong password). */
  throughGateway?: boolean;
}

export interface IssuedToken {
  token: string;
  expiresAt: number;
  /** Our clock when the token arrived. */
  issuedAt: number;
  /** Issued by a team gateway to this member (its claims say so); null for the service's own. */
  gateway: GatewaySession | null;
}

/** One token request; every failure is a PcdError in PCD's words, never with the password. */
export async function requestToken(
  deps: TokenRequestDeps,
  { username, password, settings, purpose, throughGateway = false }: TokenRequest,
): Promise<IssuedToken> {
  const prefix = purpose === "sign-in" ? "Sign-in failed" : "Renewing the access token failed";
  const url = accessTokenUrl(settings);
  const secrets = [password];
  const controller = new AbortController();
  let timedOut = false;
  const cancelTimeout = (deps.scheduler ?? realScheduler).after(settings.callTimeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  let response: Response;
  let bodyText: string;
  try {
    response = await fetchWithoutCrossOriginRedirect(
      deps.fetch,
      url,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ username, password }),
        signal: controller.signal,
      },
      { what: `the ${purpose}`, credential: "your password", setting: "the token address" },
    );
    // A token answer is a few kilobytes: a larger one is read no further.
    bodyText = await readCapped(response, MAX_TOKEN_ANSWER_BYTES, "Access Token");
  } catch (error) {
    if (error instanceof PcdError) {
      // A refused redirect (it names only the target's origin) or an answer too large:
      // already in PCD's words.
      throw new PcdError(error.kind, `${prefix}: ${error.message}`, error.details);
    }
    const failure = classifyFetchRejection(error, {
      operation: "access_token",
      url,
      timedOutAfterMs: timedOut ? settings.callTimeoutMs : null,
    });
    throw new PcdError(
      failure.kind,
      `${prefix}: ${redactSecrets(failure.message, secrets)}`,
      redactDetails(failure.details, secrets),
    );
  } finally {
    cancelTimeout();
  }

  const now = deps.clock.now();
  if (!response.ok) {
    // The token service's own text is never shown: it is the one answer that may echo
    // the password (in any spelling), and what it says is no clearer than the status.
    const status = response.status;
    if (status === 403 && (throughGateway || memberBlocked(response.headers.get(GATEWAY_REFUSAL_HEADER)))) {
      // A renewal's password signed in before, and a gateway says so at any sign-in: the
      // gateway refuses the member (blocked there). Its words are not shown, as no token
      // service's are.
      throw new PcdError(
        "auth",
        `${prefix}: your team's gateway refused your account (HTTP 403): it may be blocked there. Ask the gateway's administrator, then sign in again.`,
        { status },
      );
    }
    if (status === 400 || status === 401 || status === 403) {
      throw new PcdError(
        "auth",
        `${prefix}: the service rejected the username or password (HTTP ${status}). Check both and sign in again.`,
        { status },
      );
    }
    const failure = classifyHttpFailure(
      { status, bodyText: "", retryAfterMs: parseRetryAfter(response.headers.get("Retry-After"), now) },
      {
        operation: "access_token",
        now,
        serviceState: deps.serviceState?.() ?? serviceState(now, settings.releaseBusinessDay),
        secrets,
        throughGateway,
      },
    );
    throw new PcdError(failure.kind, `${prefix}: ${failure.message}`, failure.details);
  }

  let token: unknown;
  try {
    token = nestsDeeperThan(bodyText, MAX_ANSWER_NESTING)
      ? undefined
      : (JSON.parse(bodyText) as { access_token?: unknown } | null)?.access_token;
  } catch {
    token = undefined;
  }
  if (typeof token !== "string" || token.trim() === "") {
    throw new PcdError(
      "protocol",
      `${prefix}: the token service answered without an access_token (check the token address in the settings).`,
    );
  }
  const claims = await claimsOf(token, deps.log);
  return {
    token,
    expiresAt: expiryFrom(claims, now),
    issuedAt: now,
    gateway: gatewayOf(claims, username),
  };
}

/**
 * Expiry of a token: the JWT's exp (decoded, not verified: the client has no key). When
 * exp is missing or unreadable, issue time + 2 h. When exp is already past by our clock
 * (a PC clock that runs late), the token's own lifetime (exp - iat, else 2 h) from now.
 * An expiry (or lifetime) beyond 24 h is unusable: issue time + 2 h. The rule is
 * token-expiry.ts's, which the team gateway follows for its own token too.
 */
export async function expiryOf(token: string, now: number, log?: Logger): Promise<number> {
  return expiryFrom(await claimsOf(token, log), now);
}

function expiryFrom(claims: Record<string, unknown> | undefined, now: number): number {
  return tokenExpiry(claims, now, TOKEN_LIFETIME_MS);
}

/**
 * The token's claims. When the reader's code cannot load, the token is used as one without
 * a readable expiry (2 h, and renewed at once if the service refuses it earlier), and the
 * next token tries to load the reader again.
 */
async function claimsOf(token: string, log?: Logger): Promise<Record<string, unknown> | undefined> {
  try {
    return await jwtClaims(token);
  } catch (error) {
    log?.(
      "warn",
      `The add-in could not load its token reader (${errorMessage(error)}): this access token is taken to last 2 hours and renewed at once if the service refuses it sooner; the next token tries the reader again.`,
    );
    return undefined;
  }
}
