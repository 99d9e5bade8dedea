// "Sign in with your organisation": nested app authentication where Office offers it, the
// Office dialog elsewhere. MSAL.js loads only when the user clicks the button on a host with
// nested app authentication (a chunk of its own): neither the functions runtime nor the
// pane's first paint carries it, and the dialog path never loads it.
import { signInWithDialog } from "./dialog-source";
import { noteOrgSignInEnded } from "./ended-notice";
import { signInNested } from "./naa-source";
import type { OrgTokenSource } from "./org-session";
import { officeDialogOpener } from "./office-dialog";
import { randomToken } from "./pkce";
import { msalAuthority, type OrgSignInSettings } from "./settings";

/** The dialog page, beside the pane's page. */
export const DIALOG_PAGE = "dialog.html";

function nestedAppAuthSupported(): boolean {
  return Office.context.requirements?.isSetSupported("NestedAppAuth", "1.1") === true;
}

export async function signInWithOrganisation(settings: OrgSignInSettings): Promise<OrgTokenSource> {
  noteOrgSignInEnded(null);
  const now = (): number => Date.now();
  if (nestedAppAuthSupported()) {
    const { createNestablePublicClientApplication } = await import(
      /* webpackChunkName: "msal" */ "@azure/msal-browser"
    );
    const client = await createNestablePublicClientApplication({
      auth: { clientId: settings.clientId, authority: msalAuthority(settings.issuer) },
    });
    return signInNested(client, settings.scope, now);
  }
  return signInWithDialog({
    opener: officeDialogOpener,
    fetch: (input, init) => fetch(input, init),
    now,
    newState: () => randomToken((bytes) => crypto.getRandomValues(bytes)),
    origin: window.location.origin,
    dialogUrl: new URL(DIALOG_PAGE, window.location.href).toString(),
    settings,
  });
}
