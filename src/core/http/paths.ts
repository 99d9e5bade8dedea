// Addresses of the operations (docs/service.md §4.2-§4.5 and the sandbox variants of §4.7).
import type { EngineSettings } from "../engine-api";
import { PcdError } from "../errors";
import type { Operation, ProductId, ServiceEnvironment } from "../model";

/**
 * The four operations the ServiceClient performs (the token operation belongs to Auth); the
 * two of them that fetch series data are DataCallOperation (service-client.ts).
 */
export type ServiceOperation = Exclude<Operation, "access_token">;

/**
 * The URL of one operation. The sandbox inserts "sandbox" after "v1" for Series Info,
 * Values and History. The spec shows no sandbox Data Limits, so Data Limits always
 * calls the live address (the sandbox has no monthly code limits anyway).
 * The environment is the call's own (its request keys'), not the settings' at send time.
 */
export function operationUrl(
  settings: EngineSettings,
  environment: ServiceEnvironment,
  product: ProductId,
  operation: ServiceOperation,
  codesSegment = "",
): string {
  // The last line of defence for a product name from user text: only a configured product
  // has an address ("__proto__" would otherwise call "<base>undefined/v1/...").
  if (!Object.hasOwn(settings.productPaths, product)) {
    throw new PcdError(
      "input",
      `"${String(product).slice(0, 40)}" is not a PCD product: no service address is set for it.`,
    );
  }
  const base = `${settings.baseUrl}${settings.productPaths[product]}/v1`;
  const sandbox = environment === "sandbox" ? "/sandbox" : "";
  switch (operation) {
    case "series_info":
      return `${base}${sandbox}/export/series`;
    case "series_values":
      return `${base}${sandbox}/export/series/${codesSegment}`;
    case "series_hist":
      return `${base}${sandbox}/export/series_hist/${codesSegment}`;
    case "data_limits":
      return `${base}/data_limits`;
  }
}

/** The token address of docs/service.md §4.1. */
export function accessTokenUrl(settings: EngineSettings): string {
  return `${settings.authUrl}/access_token/v1`;
}
