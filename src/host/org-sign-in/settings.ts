// The organisation sign-in a build was made for (PCD_OIDC_AUTHORITY, PCD_OIDC_CLIENT_ID,
// PCD_OIDC_SCOPE, put in by webpack's DefinePlugin, see webpack.config.js). With all three
// the sign-in panel offers "Sign in with your organisation" first; without them it does not.

declare const __PCD_OIDC_AUTHORITY__: string | undefined;
declare const __PCD_OIDC_CLIENT_ID__: string | undefined;
declare const __PCD_OIDC_SCOPE__: string | undefined;

export interface OrgSignInSettings {
  /**
   * The issuer, as the gateway's --oidc-issuer takes it (for Entra ID
   * https://login.microsoftonline.com/<tenant id>/v2.0): its discovery document is
   * <issuer>/.well-known/openid-configuration.
   */
  issuer: string;
  /** The add-in's application (client) ID. */
  clientId: string;
  /** The scope of the gateway's API, e.g. api://<gateway client id>/access_as_user. */
  scope: string;
}

/** The settings when all three are given (blank texts count as missing), else null. */
export function orgSignInSettingsFrom(
  issuer: string | undefined,
  clientId: string | undefined,
  scope: string | undefined,
): OrgSignInSettings | null {
  const values = [issuer, clientId, scope].map((value) => value?.trim() ?? "");
  const [cleanIssuer = "", cleanClientId = "", cleanScope = ""] = values;
  if (values.some((value) => value === "")) return null;
  return { issuer: cleanIssuer.replace(/\/+$/, ""), clientId: cleanClientId, scope: cleanScope };
}

/** This bundle's settings (none outside a webpack build, e.g. under Jest). */
export function buildTimeOrgSignIn(): OrgSignInSettings | null {
  return orgSignInSettingsFrom(
    typeof __PCD_OIDC_AUTHORITY__ === "string" ? __PCD_OIDC_AUTHORITY__ : undefined,
    typeof __PCD_OIDC_CLIENT_ID__ === "string" ? __PCD_OIDC_CLIENT_ID__ : undefined,
    typeof __PCD_OIDC_SCOPE__ === "string" ? __PCD_OIDC_SCOPE__ : undefined,
  );
}

/**
 * MSAL's authority for an issuer: Entra ID's v2.0 issuer without its "/v2.0" (MSAL adds
 * the version itself); any other issuer as it is.
 */
export function msalAuthority(issuer: string): string {
  return issuer.replace(/\/v2\.0$/, "");
}

/** The discovery document of the issuer (OpenID Connect Discovery 1.0). */
export function discoveryUrl(issuer: string): string {
  return `${issuer}/.well-known/openid-configuration`;
}
