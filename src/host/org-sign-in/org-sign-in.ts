// "Sign in with your organisation", loaded only when the user clicks it (a chunk of its own:
// neither the functions runtime nor the pane's first paint carries MSAL). Nested app
// authentication where Office offers it, the Office dialog elsewhere.
import type { TokenSource } from "../../core/token-source";
import { signInWithDialog } from "./dialog-source";
import { noteOrgSignInEnded } from "./ended-notice";
import { signInNested } from "./naa-source";
import { officeDialogOpener } from "./office-dialog";
import { randomToken } from "./pkce";
import { msalAuthority, type OrgSignInSettings } from "./settings";

/** The dialog page, beside the pane's page. */
export const DIALOG_PAGE = "dialog.html";

function nestedAppAuthSupported(): boolean {
  return Office.context.requirements?.isSetSupported("NestedAppAuth", "1.1") === true;
}

export async function signInWithOrganisation(settings: OrgSignInSettings): Promise<TokenSource> {
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
