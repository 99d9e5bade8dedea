// What the organisation sign-in says when it cannot go on: the cause once, then what to do.
// No message quotes a token or an issuer's answer that could carry one.
import { PcdError } from "../../core/errors";

export const ORG_SIGN_IN_CANCELLED =
  "Sign-in with your organisation was cancelled: the sign-in window was closed. Click Sign in with your organisation to try again.";

export const ORG_SIGN_IN_ENDED =
  "Your organisation sign-in has ended and could not be renewed without you: sign in again in the PCD pane (Sign in with your organisation).";

/** A sign-in that failed for a reason the user cannot fix by retrying at once. */
export function orgSignInFailed(cause: string): PcdError {
  return new PcdError(
    "auth",
    `Sign-in with your organisation failed: ${cause}. Try again, or ask your IT department.`,
  );
}

export function orgSignInUnreachable(cause: string): PcdError {
  return new PcdError(
    "network",
    `Can't reach your organisation's sign-in service (${cause}): check the connection and try again.`,
  );
}
