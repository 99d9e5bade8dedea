// "Sign in with your organisation": nested app authentication where Office offers it, the
// Office dialog elsewhere. MSAL.js loads only when the user clicks the button on a host with
// nested app authentication: neither the functions runtime nor the pane's first paint carries
// it, and the dialog path never loads it. It is MSAL's own browser build, copied beside the
// pane (webpack.config.js) and loaded as a script, not a webpack chunk: the chunk table in the
// runtime that Excel loads with the functions does not grow.
import type * as Msal from "@azure/msal-browser";
import { PcdError } from "../../core/errors";
import { signInWithDialog } from "./dialog-source";
import { noteOrgSignInEnded } from "./ended-notice";
import { signInNested } from "./naa-source";
import type { OrgTokenSource } from "./org-session";
import { officeDialogOpener } from "./office-dialog";
import { randomToken } from "./pkce";
import { msalAuthority, type OrgSignInSettings } from "./settings";

/** The dialog page, beside the pane's page. */
export const DIALOG_PAGE = "dialog.html";
/** MSAL.js's browser build (it defines the global msal), beside the pane's page. */
export const MSAL_SCRIPT = "msal-browser.min.js";

declare global {
  interface Window {
    msal?: typeof Msal;
  }
}

let msal: Promise<typeof Msal> | undefined;

/** MSAL.js, loaded once; a failed load is tried again by the next click. */
function loadMsal(): Promise<typeof Msal> {
  msal ??= new Promise<typeof Msal>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = new URL(MSAL_SCRIPT, window.location.href).toString();
    script.onload = () => (window.msal ? resolve(window.msal) : reject(new Error("it defined no msal")));
    script.onerror = () => {
      script.remove();
      reject(new Error("the script did not load"));
    };
    document.head.append(script);
  }).catch((error: unknown) => {
    msal = undefined;
    throw new PcdError(
      "network",
      `Sign-in with your organisation failed: the add-in could not load its sign-in code (${error instanceof Error ? error.message : String(error)}): check the connection and try again.`,
    );
  });
  return msal;
}

function nestedAppAuthSupported(): boolean {
  return Office.context.requirements?.isSetSupported("NestedAppAuth", "1.1") === true;
}

export async function signInWithOrganisation(settings: OrgSignInSettings): Promise<OrgTokenSource> {
  noteOrgSignInEnded(null);
  const now = (): number => Date.now();
  if (nestedAppAuthSupported()) {
    const { createNestablePublicClientApplication } = await loadMsal();
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
