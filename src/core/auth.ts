// The runtime's one access token (docs/service.md §5). The password is kept in memory only
// (a private field) so the 2-hour token can be renewed silently during the session; it
// is never stored, logged or put in an error message, and neither is the token.
import type { AuthStatus, EngineSettings, ServiceState, Unsubscribe } from "./engine-api";
import type { Clock, FetchLike, Logger } from "./environment";
import { errorMessage, PcdError } from "./errors";
import { hasServiceAddress } from "./settings";
import { ENGINE_DEFAULTS } from "./defaults";
import type { Scheduler } from "./scheduler";
import { renewMarginFor } from "./token-renewal";
import type { IssuedToken, TokenPurpose } from "./token-request";
import type { ExternalTokenSource } from "./token-source";

/** Renew this long before expiry, so a call never leaves with a token about to lapse. */
export const RENEW_BEFORE_EXPIRY_MS = ENGINE_DEFAULTS.renewBeforeExpiryMs;

/** The renewal margin: 5 minutes, or a quarter of the lifetime for short-lived tokens (tests, odd services). */
export function renewMargin(lifetimeMs: number): number {
  return renewMarginFor(lifetimeMs, RENEW_BEFORE_EXPIRY_MS);
}

export const NOT_SIGNED_IN_MESSAGE =
  "Not signed in: sign in to PCD in the task pane (Series button on the PCD tab).";

/** What a cell says before any service address is known (a build without one, first run). */
export const NO_SERVICE_ADDRESS_MESSAGE =
  "PCD has no service address yet: open the PCD pane (Series button on the PCD tab) and sign in.";

/**
 * What a cell says while there is no session. After a failed sign-in it also says why
 * (service unreachable, maintenance, refused password): "sign in" alone would send the user
 * to retype a password that was never the problem. The instruction comes first, so Excel's
 * 255-character cut only ever shortens the cause.
 */
export function notSignedInMessage(lastFailure: string | null): string {
  return lastFailure === null
    ? NOT_SIGNED_IN_MESSAGE
    : `${NOT_SIGNED_IN_MESSAGE} Last attempt: ${lastFailure}`;
}

export interface AuthDeps {
  fetch: FetchLike;
  clock: Clock;
  /** The token request's timeout timer (default: the real setTimeout). */
  scheduler?: Scheduler;
  settings: () => EngineSettings;
  log?: Logger;
  /** The engine's view of the service, for the token service's failures (token-request.ts). */
  serviceState?: () => ServiceState;
}

interface Session {
  username: string;
  password: string;
  /** Asks for a token: the token service with the password, or the organisation's source. */
  obtain: (purpose: TokenPurpose) => Promise<IssuedToken>;
  /** The addresses signed in to: changing either signs out (another service, another account). */
  baseUrl: string;
  authUrl: string;
  token: string | null;
  expiresAt: number | null;
  issuedAt: number | null;
  /** From the current token's claims (a renewal's token says it again). */
  gateway: { member: string } | null;
}

export class Auth {
  #session: Session | null = null;
  #renewal: Promise<string> | null = null;
  #listeners = new Set<(status: AuthStatus) => void>();
  #requestCount = 0;
  /** Why the last sign-in failed, or the renewal that ended the session (already redacted). */
  #lastFailure: string | null = null;

  constructor(private readonly deps: AuthDeps) {}

  /**
   * Obtains a token for these credentials, or from the organisation's token source; on
   * failure the previous session is left as it was.
   */
  async signIn(who: string | ExternalTokenSource, password = ""): Promise<AuthStatus> {
    const name = typeof who === "string" ? who.trim() : who.account;
    if (name === "") throw new PcdError("input", "Sign-in needs a username (the developer account login).");
    if (password === "" && typeof who === "string")
      throw new PcdError("input", "Sign-in needs the password of the developer account.");
    const settings = this.deps.settings();
    // Without both addresses the token request would go to the add-in's own origin.
    if (!hasServiceAddress(settings)) {
      throw new PcdError(
        "input",
        "Sign-in needs the service address and the token address (under Advanced).",
        {
          argument: settings.baseUrl === "" ? "baseUrl" : "authUrl",
        },
      );
    }
    const obtain =
      typeof who === "string"
        ? (purpose: TokenPurpose) => this.requestToken(name, password, this.deps.settings(), purpose)
        : who.token;
    let issued: IssuedToken;
    try {
      issued = await obtain("sign-in");
    } catch (error) {
      // A failed sign-in leaves a running session alone; without one, cells say why.
      if (this.#session === null && error instanceof PcdError) this.#lastFailure = error.message;
      throw error;
    }
    this.#lastFailure = null;
    this.#renewal = null;
    this.#session = {
      username: name,
      password,
      obtain,
      baseUrl: settings.baseUrl,
      authUrl: settings.authUrl,
      ...issued,
    };
    this.deps.log?.(
      "info",
      `Signed in as ${name}; token valid until ${new Date(issued.expiresAt).toISOString()}.`,
    );
    this.emit();
    return this.status();
  }

  /** The current token, renewed when it is within 5 minutes of expiry. */
  async token(): Promise<string> {
    const session = this.activeSession();
    if (!session) throw this.notSignedIn();
    if (
      session.token !== null &&
      session.expiresAt !== null &&
      session.issuedAt !== null &&
      this.deps.clock.now() < session.expiresAt - renewMargin(session.expiresAt - session.issuedAt)
    ) {
      return session.token;
    }
    return this.renew();
  }

  /** Obtains a new token now (after a 401); concurrent callers share one request. */
  renew(): Promise<string> {
    const session = this.activeSession();
    if (!session) return Promise.reject(this.notSignedIn());
    if (this.#renewal) return this.#renewal;
    const renewal = this.renewSession(session).finally(() => {
      if (this.#renewal === renewal) this.#renewal = null;
    });
    this.#renewal = renewal;
    return renewal;
  }

  /** Drops the token and the password. */
  signOut(): void {
    const wasSignedIn = this.#session !== null;
    this.#session = null;
    this.#renewal = null;
    this.#lastFailure = null;
    if (wasSignedIn) {
      this.deps.log?.("info", "Signed out.");
      this.emit();
    }
  }

  status(): AuthStatus {
    const session = this.activeSession();
    return {
      signedIn: session !== null,
      username: session?.username ?? null,
      environment: this.deps.settings().environment,
      tokenExpiresAt: session?.token ? session.expiresAt : null,
      gateway: session?.gateway ?? null,
    };
  }

  onChange(listener: (status: AuthStatus) => void): Unsubscribe {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Signs out when the service or token address changed since sign-in (another service
   * means other credentials). A change of environment (live/sandbox) keeps the token:
   * it is the same account. Called by every public method, and callable after settings change.
   */
  checkSettings(): void {
    this.activeSession();
  }

  /** The session's password and token: every text shown from a failure is redacted of both. */
  secrets(): string[] {
    const session = this.#session;
    if (session === null) return [];
    return session.token === null ? [session.password] : [session.password, session.token];
  }

  /** Access Token requests sent so far (for the engine's statistics). */
  requestCount(): number {
    return this.#requestCount;
  }

  private notSignedIn(): PcdError {
    if (!hasServiceAddress(this.deps.settings()))
      return new PcdError("not_signed_in", NO_SERVICE_ADDRESS_MESSAGE);
    return new PcdError("not_signed_in", notSignedInMessage(this.#lastFailure));
  }

  private activeSession(): Session | null {
    const session = this.#session;
    if (!session) return null;
    const settings = this.deps.settings();
    if (settings.baseUrl !== session.baseUrl || settings.authUrl !== session.authUrl) {
      this.deps.log?.("info", "Service address changed: signed out.");
      this.signOut();
      return null;
    }
    return session;
  }

  private async renewSession(session: Session): Promise<string> {
    let issued: IssuedToken;
    try {
      issued = await session.obtain("renewal");
    } catch (error) {
      // Rejected credentials will not get better by retrying: forget them, so cells say
      // "not signed in" instead of asking the service again and again.
      if (error instanceof PcdError && error.kind === "auth" && this.#session === session) {
        this.signOut();
        this.#lastFailure = error.message;
      }
      throw error;
    }
    // A sign-in or sign-out while this renewal was in flight wins over its result:
    // after a new sign-in the waiting callers get the new session's token.
    if (this.#session !== session) {
      if (this.#session) return this.token();
      throw this.notSignedIn();
    }
    // The token, its times and the gateway it names (IssuedToken's fields, nothing else).
    Object.assign(session, issued);
    this.deps.log?.("info", `Access token renewed; valid until ${new Date(issued.expiresAt).toISOString()}.`);
    this.emit();
    return issued.token;
  }

  /**
   * Asks the token service for a token. The request's code loads with the first sign-in
   * (token-request.ts says why); a failed load is a network error the next attempt retries.
   */
  private async requestToken(
    username: string,
    password: string,
    settings: EngineSettings,
    purpose: TokenPurpose,
  ): Promise<IssuedToken> {
    const { requestToken } = await loadTokenRequest(purpose);
    this.#requestCount++;
    // A renewal of a team gateway's token is answered by that gateway (its refusals are its own).
    const throughGateway = purpose === "renewal" && (this.#session?.gateway ?? null) !== null;
    return requestToken(this.deps, { username, password, settings, purpose, throughGateway });
  }

  private emit(): void {
    const status = this.status();
    for (const listener of [...this.#listeners]) {
      try {
        listener(status);
      } catch (error) {
        this.deps.log?.("warn", `Auth listener failed: ${(error as Error).message}`);
      }
    }
  }
}

let tokenRequest: Promise<typeof import("./token-request")> | undefined;

/** The token request's module, loaded once; a failed load is tried again by the next sign-in or renewal. */
async function loadTokenRequest(purpose: TokenPurpose): Promise<typeof import("./token-request")> {
  tokenRequest ??= import(/* webpackChunkName: "token-request" */ "./token-request");
  try {
    return await tokenRequest;
  } catch (error) {
    tokenRequest = undefined;
    const prefix = purpose === "sign-in" ? "Sign-in failed" : "Renewing the access token failed";
    throw new PcdError(
      "network",
      `${prefix}: the add-in could not load its sign-in code (${errorMessage(error)}): check the connection and try again.`,
    );
  }
}
