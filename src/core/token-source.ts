// A sign-in that is not a username and password: the organisation's account (the task
// pane signs in through Microsoft Entra ID and hands the engine this source). The engine
// asks it for a token at sign-in and before each expiry, the way it asks the token service
// with a password. A renewal never prompts: cells must not wait on a sign-in window, so a
// source that cannot renew silently rejects with a PcdError "auth" and the session ends.
import type { IssuedToken, TokenPurpose } from "./token-request";

export interface ExternalTokenSource {
  /** The account signed in, as the status shows it (the token's preferred_username). */
  readonly account: string;
  /**
   * A token and when it expires. For "sign-in", the one the user has just signed in for;
   * for "renewal", a new one obtained without any window.
   */
  readonly token: (purpose: TokenPurpose) => Promise<IssuedToken>;
}
