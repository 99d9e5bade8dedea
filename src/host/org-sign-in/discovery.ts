// The issuer's endpoints from its discovery document (OpenID Connect Discovery 1.0). Only
// https endpoints are taken (plain http only on this computer, for a local test issuer).
import type { FetchLike } from "../../core/environment";
import { discoveryUrl } from "./settings";

export interface IssuerEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
}

function isSafeEndpoint(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    if (url.protocol === "https:") return true;
    return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  } catch {
    return false;
  }
}

/** The endpoints a discovery document names, or why it does not. */
export function readDiscovery(document: unknown): IssuerEndpoints | { refused: string } {
  if (typeof document !== "object" || document === null)
    return { refused: "its discovery document is not a JSON object" };
  const fields = document as Record<string, unknown>;
  if (!isSafeEndpoint(fields.authorization_endpoint) || !isSafeEndpoint(fields.token_endpoint))
    return { refused: "its discovery document names no https authorization and token endpoints" };
  return { authorizationEndpoint: fields.authorization_endpoint, tokenEndpoint: fields.token_endpoint };
}

/** Reads the issuer's endpoints; rejects with the cause (network or document). */
export async function discoverIssuer(fetch: FetchLike, issuer: string): Promise<IssuerEndpoints> {
  const response = await fetch(discoveryUrl(issuer), { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`its discovery document answered HTTP ${response.status}`);
  const endpoints = readDiscovery(await response.json());
  if ("refused" in endpoints) throw new Error(endpoints.refused);
  return endpoints;
}
