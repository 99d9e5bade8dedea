// What the sign-in dialog sends the pane (Office.context.ui.messageParent) and the pane's
// reading of it. The pane takes a token only from a message of this shape, from the add-in's
// own origin, answering the state the pane gave this dialog; anything else is refused.
import type { TokenAnswer } from "./pkce";

export const DIALOG_MESSAGE_TYPE = "pcd-org-sign-in";

export type DialogMessage =
  | { type: typeof DIALOG_MESSAGE_TYPE; state: string; token: TokenAnswer }
  | { type: typeof DIALOG_MESSAGE_TYPE; state: string; failure: string };

export function dialogMessageText(message: DialogMessage): string {
  return JSON.stringify(message);
}

export type DialogOutcome = { token: TokenAnswer } | { failure: string } | { refused: string };

/**
 * Reads a message the dialog event carried. `origin` is the sender's origin where Office
 * reports it (older hosts do not, and deliver only messages of the page's own domain).
 */
export function readDialogMessage(
  received: { message: string; origin?: string },
  expected: { origin: string; state: string },
): DialogOutcome {
  if (received.origin !== undefined && received.origin !== expected.origin)
    return { refused: `a message from ${received.origin}, not from the add-in (${expected.origin})` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(received.message);
  } catch {
    return { refused: "a message that is not JSON" };
  }
  if (typeof parsed !== "object" || parsed === null) return { refused: "a message of the wrong shape" };
  const fields = parsed as Record<string, unknown>;
  if (fields.type !== DIALOG_MESSAGE_TYPE) return { refused: "a message of the wrong shape" };
  if (fields.state !== expected.state)
    return { refused: "a message for another sign-in (its state differs)" };
  if (typeof fields.failure === "string") return { failure: fields.failure };
  const token = fields.token;
  if (typeof token !== "object" || token === null) return { refused: "a message of the wrong shape" };
  const { accessToken, expiresIn, refreshToken } = token as Record<string, unknown>;
  if (
    typeof accessToken !== "string" ||
    accessToken === "" ||
    typeof expiresIn !== "number" ||
    !Number.isFinite(expiresIn) ||
    expiresIn <= 0 ||
    (refreshToken !== null && typeof refreshToken !== "string")
  )
    return { refused: "a message of the wrong shape" };
  return { token: { accessToken, expiresIn, refreshToken } };
}
