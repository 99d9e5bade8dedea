// Organisation sign-in through nested app authentication: Office brokers the sign-in and
// MSAL.js (createNestablePublicClientApplication) gives the token. At sign-in (the user's
// click) a silent token first, a popup only when that fails; renewals are silent only.
import { noteOrgSignInEnded } from "./ended-notice";
import { accountOf, issuedToken } from "./issued-token";
import { ORG_SIGN_IN_CANCELLED, ORG_SIGN_IN_ENDED, orgSignInFailed, orgSignInUnreachable } from "./messages";
import { PcdError } from "../../core/errors";
import type { OrgTokenSource } from "./org-session";

/** The parts of MSAL's AuthenticationResult read here. */
export interface NestedAppResult {
  accessToken: string;
  expiresOn: Date | null;
  account: { username: string } | null;
}

/** The parts of MSAL's IPublicClientApplication used here (a fake in tests). */
export interface NestedAppClient {
  acquireTokenSilent(request: {
    scopes: string[];
    account?: NestedAppResult["account"] & object;
    forceRefresh?: boolean;
  }): Promise<NestedAppResult>;
  acquireTokenPopup(request: { scopes: string[] }): Promise<NestedAppResult>;
  clearCache(): Promise<void>;
}

/** MSAL's error codes for a network that failed (anything else needs the user). */
const NETWORK_CODES = new Set(["no_network_connectivity", "post_request_failed", "get_request_failed"]);

function errorCodeOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "errorCode" in error) {
    const code = (error as { errorCode: unknown }).errorCode;
    if (typeof code === "string" && code !== "") return code;
  }
  return error instanceof Error ? error.name : "unknown error";
}

function signInError(error: unknown): PcdError {
  const code = errorCodeOf(error);
  if (code === "user_cancelled") return new PcdError("auth", ORG_SIGN_IN_CANCELLED);
  if (NETWORK_CODES.has(code)) return orgSignInUnreachable(code);
  return orgSignInFailed(code);
}

/** The expiry MSAL reported, or an hour (Entra ID's shortest access token lifetime) when it did not. */
function expiryOf(result: NestedAppResult, now: number): number {
  return result.expiresOn?.getTime() ?? now + 3_600_000;
}

export async function signInNested(
  client: NestedAppClient,
  scope: string,
  now: () => number,
): Promise<OrgTokenSource> {
  let result: NestedAppResult;
  try {
    result = await client.acquireTokenSilent({ scopes: [scope] });
  } catch {
    // No account cached yet, or consent needed: this runs on the user's click, so a
    // window may open.
    try {
      result = await client.acquireTokenPopup({ scopes: [scope] });
    } catch (error) {
      throw signInError(error);
    }
  }
  const account = result.account;
  const name = accountOf(result.accessToken, account?.username ?? null);
  const first = issuedToken(result.accessToken, expiryOf(result, now()), now(), name);
  return {
    account: name,
    token: async (purpose) => {
      if (purpose === "sign-in") return first;
      let renewed: NestedAppResult;
      try {
        renewed = await client.acquireTokenSilent({
          scopes: [scope],
          ...(account !== null ? { account } : {}),
          // The engine renews before expiry: MSAL's cached token is the one being replaced.
          forceRefresh: true,
        });
      } catch (error) {
        const code = errorCodeOf(error);
        if (NETWORK_CODES.has(code)) throw orgSignInUnreachable(code);
        noteOrgSignInEnded(ORG_SIGN_IN_ENDED);
        throw new PcdError("auth", ORG_SIGN_IN_ENDED);
      }
      return issuedToken(renewed.accessToken, expiryOf(renewed, now()), now(), name);
    },
    forget: () => {
      // Sign-out is done for the engine at once; MSAL's cache is cleared in the background.
      void client.clearCache().catch(() => undefined);
    },
  };
}
