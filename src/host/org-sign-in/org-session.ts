// The organisation session the pane started, while it is the engine's current session: the
// Account and Status tabs say the sign-in went through the organisation's account, and when
// the session ends (sign-out, a renewal that needs the user, another sign-in, a changed
// service address) the source forgets its tokens (MSAL's cache, the dialog's refresh token).
// Kept here, beside the pane, so the engine in the functions runtime carries none of it.
import type { AuthStatus, Engine, Unsubscribe } from "../../core/engine-api";
import type { ExternalTokenSource } from "../../core/token-source";

export interface OrgTokenSource extends ExternalTokenSource {
  /** Forgets the account's cached tokens. */
  forget(): void;
}

/** The engine as a session uses it (Engine has both). */
export interface OrgSessionEngine {
  signIn(source: ExternalTokenSource): Promise<AuthStatus>;
  onAuthChange: Engine["onAuthChange"];
}

let current: { source: OrgTokenSource; stop: Unsubscribe } | null = null;

/** Ends the pane's organisation session, if any: its source forgets its tokens. */
export function endOrgSession(): void {
  const ended = current;
  current = null;
  ended?.stop();
  ended?.source.forget();
}

/** Signs the engine in with the source; on failure the source forgets what it obtained. */
export async function startOrgSession(engine: OrgSessionEngine, source: OrgTokenSource): Promise<AuthStatus> {
  const previous = current;
  // Set before the engine announces the sign-in, so the first render already says how.
  current = { source, stop: () => undefined };
  let status: AuthStatus;
  try {
    status = await engine.signIn(source);
  } catch (error) {
    current = previous;
    source.forget();
    throw error;
  }
  previous?.stop();
  current = {
    source,
    stop: engine.onAuthChange((next) => {
      if (!next.signedIn || next.username !== source.account) endOrgSession();
    }),
  };
  return status;
}

/** Signed in through the organisation's account (this status is the pane's organisation session). */
export function isOrgSession(status: AuthStatus): boolean {
  return current !== null && status.signedIn && status.username === current.source.account;
}
