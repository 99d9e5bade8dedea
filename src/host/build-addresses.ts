// The service and token addresses a build was made for (PCD_SERVICE_URL, PCD_AUTH_URL,
// put in by webpack's DefinePlugin, see webpack.config.js). They become the engine's
// default settings; the user can change them under Advanced at sign-in. A production
// build without PCD_SERVICE_URL has none: the pane then asks for it at first sign-in.
import type { EngineSettings } from "../core/engine-api";

declare const __PCD_SERVICE_URL__: string | undefined;
declare const __PCD_AUTH_URL__: string | undefined;

/** The addresses as defaults: the token address falls back to the service address. */
export function addressDefaults(
  serviceUrl: string | undefined,
  authUrl: string | undefined,
): Partial<Pick<EngineSettings, "baseUrl" | "authUrl">> {
  const service = serviceUrl?.trim() ?? "";
  const token = authUrl?.trim() || service;
  return {
    ...(service !== "" ? { baseUrl: service } : {}),
    ...(token !== "" ? { authUrl: token } : {}),
  };
}

/** The defaults of this bundle (none outside a webpack build, e.g. under Jest). */
export function buildTimeAddresses(): Partial<Pick<EngineSettings, "baseUrl" | "authUrl">> {
  return addressDefaults(
    typeof __PCD_SERVICE_URL__ === "string" ? __PCD_SERVICE_URL__ : undefined,
    typeof __PCD_AUTH_URL__ === "string" ? __PCD_AUTH_URL__ : undefined,
  );
}
