// Organisation sign-in through the Office dialog, where nested app authentication is not
// available: the pane opens the add-in's dialog page (dialog.html) with a fresh state; the
// page runs the authorization code flow with PKCE and sends the token back. Renewals use the
// refresh token the issuer gave (kept in memory only), never a window.
import type { FetchLike } from "../../core/environment";
import { PcdError } from "../../core/errors";
import { readDialogMessage } from "./dialog-message";
import { discoverIssuer } from "./discovery";
import { noteOrgSignInEnded } from "./ended-notice";
import { accountOf, issuedToken } from "./issued-token";
import type { OrgTokenSource } from "./org-session";
import { ORG_SIGN_IN_CANCELLED, ORG_SIGN_IN_ENDED, orgSignInFailed, orgSignInUnreachable } from "./messages";
import { readTokenAnswer, tokenRequestBody, type TokenAnswer } from "./pkce";
import type { OrgSignInSettings } from "./settings";

/** Office's code for a dialog the user closed (DialogEventReceived). */
export const DIALOG_CLOSED_BY_USER = 12006;

export interface DialogHandlers {
  message(received: { message: string; origin?: string }): void;
  /** The dialog ended without a message: Office's event code (12006: closed by the user). */
  ended(code: number): void;
}

/** Office.context.ui.displayDialogAsync, as this flow uses it (a fake in tests, a mock in the preview). */
export interface DialogOpener {
  open(url: string, handlers: DialogHandlers): Promise<{ close(): void }>;
}

export interface DialogSignInDeps {
  opener: DialogOpener;
  fetch: FetchLike;
  now: () => number;
  /** A fresh random state (pkce.randomToken in the add-in). */
  newState: () => string;
  /** The add-in's origin: messages from any other are refused. */
  origin: string;
  /** The dialog page's address (the add-in's dialog.html). */
  dialogUrl: string;
  settings: OrgSignInSettings;
}

function waitForDialog(deps: DialogSignInDeps, state: string): Promise<TokenAnswer> {
  return new Promise<TokenAnswer>((resolve, reject) => {
    let dialog: { close(): void } | null = null;
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      dialog?.close();
      outcome();
    };
    const url = `${deps.dialogUrl}?${new URLSearchParams({ state }).toString()}`;
    deps.opener
      .open(url, {
        message(received) {
          const outcome = readDialogMessage(received, { origin: deps.origin, state });
          if ("token" in outcome) finish(() => resolve(outcome.token));
          else if ("failure" in outcome) finish(() => reject(orgSignInFailed(outcome.failure)));
          else finish(() => reject(orgSignInFailed(`the sign-in window sent ${outcome.refused}`)));
        },
        ended(code) {
          finish(() =>
            reject(
              code === DIALOG_CLOSED_BY_USER
                ? new PcdError("auth", ORG_SIGN_IN_CANCELLED)
                : orgSignInFailed(`the sign-in window ended (Office code ${code})`),
            ),
          );
        },
      })
      .then(
        (opened) => {
          dialog = opened;
          if (settled) opened.close();
        },
        (error: unknown) =>
          finish(() =>
            reject(
              orgSignInFailed(
                `the sign-in window could not open (${error instanceof Error ? error.message : String(error)})`,
              ),
            ),
          ),
      );
  });
}

export async function signInWithDialog(deps: DialogSignInDeps): Promise<OrgTokenSource> {
  const answer = await waitForDialog(deps, deps.newState());
  let refreshToken = answer.refreshToken;
  const account = accountOf(answer.accessToken, null);
  const first = issuedToken(answer.accessToken, deps.now() + answer.expiresIn * 1000, deps.now(), account);

  const ended = (): PcdError => {
    refreshToken = null;
    noteOrgSignInEnded(ORG_SIGN_IN_ENDED);
    return new PcdError("auth", ORG_SIGN_IN_ENDED);
  };

  return {
    account,
    token: async (purpose) => {
      if (purpose === "sign-in") return first;
      if (refreshToken === null) throw ended();
      let answered: unknown;
      try {
        const { tokenEndpoint } = await discoverIssuer(deps.fetch, deps.settings.issuer);
        const response = await deps.fetch(tokenEndpoint, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
          body: tokenRequestBody({ refreshToken }, deps.settings.clientId, deps.settings.scope).toString(),
        });
        answered = await response.json();
      } catch (error) {
        throw orgSignInUnreachable(error instanceof Error ? error.message : "no answer");
      }
      const renewed = readTokenAnswer(answered);
      if ("refused" in renewed) throw ended();
      // Refresh tokens rotate: the newest one is the one to use next.
      refreshToken = renewed.refreshToken ?? refreshToken;
      return issuedToken(renewed.accessToken, deps.now() + renewed.expiresIn * 1000, deps.now(), account);
    },
    forget: () => {
      refreshToken = null;
    },
  };
}
