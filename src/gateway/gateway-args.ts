// Flags of `npm run gateway -- ...` (node's own parseArgs). A bad flag or value is an error that
// names it; nothing here touches the network. The Developer account is never a flag: it comes
// from PCD_UPSTREAM_USERNAME / PCD_UPSTREAM_PASSWORD or --upstream-credentials FILE.
import { isIP } from "node:net";
import { parseArgs } from "node:util";
import { RELEASE_DAY_EXPECTED, releaseBusinessDayOf } from "./members/release-day";
import { FAILED_SIGN_IN_WINDOW_MS, type FailedSignInSettings } from "./routes/failed-sign-ins";

export const GATEWAY_USAGE = [
  "Usage: npm run gateway -- --upstream URL [--upstream-auth URL] --database DIR|postgres://...",
  "         [--port N] [--host H] [--dist DIR] [--cert FILE --key FILE] [--domain example.com]",
  "         [--upstream-credentials FILE] [--catalog-minutes N] [--trust-proxy ADDRESS[,ADDRESS...]]",
  "         [--failed-sign-ins N] [--release-day N]",
  "         [--oidc-issuer URL --oidc-audience ID [--oidc-tenant ID]...]",
  "       npm run gateway -- user add EMAIL [--budget N] [--admin] --database ...   (password on stdin)",
  "       npm run gateway -- user remove|block|unblock EMAIL --database ...",
  "       npm run gateway -- user list --database ...",
  "       npm run gateway -- key add NAME [--budget N] --database ...   (prints the key once)",
  "       npm run gateway -- key revoke NAME --database ...",
  "       npm run gateway -- key list --database ...",
  "       npm run gateway -- usage [--month YYYY-MM] [--release-day N] [--json] --database ...",
].join("\n");

export const DEFAULT_GATEWAY_PORT = 8090;
export const DEFAULT_GATEWAY_HOST = "127.0.0.1";

export interface GatewayServeOptions {
  port: number;
  host: string;
  upstream: string;
  upstreamAuth: string;
  database: string;
  dist: string | undefined;
  cert: string | undefined;
  key: string | undefined;
  domain: string | null;
  upstreamCredentials: string | undefined;
  catalogMaxAgeMs: number;
  /** The front ends' addresses (or address/prefix ranges) whose X-Forwarded-For is believed (repeatable). */
  trustProxy: string[];
  /**
   * The limit on a client's failed password checks (--failed-sign-ins N, in 10 minutes): null
   * for none (N = 0); undefined for the gateway's default (gateway-app.ts: where it knows its
   * clients' addresses).
   */
  failedSignIns: FailedSignInSettings | null | undefined;
  /**
   * The monthly release's business day: members' budgets reset then, as the team's allowance
   * does. Undefined when not given: the one the database keeps (gateway-app.ts).
   */
  releaseBusinessDay: number | undefined;
  /** Organisation sign-in (OpenID Connect); null when --oidc-issuer is not given. */
  oidc: { issuer: string; audience: string; tenants: string[] } | null;
}

export class GatewayArgumentError extends Error {}

function address(flag: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new GatewayArgumentError(`${flag} expects an address (https://...), got '${text}'`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new GatewayArgumentError(`${flag} expects an http(s) address, got '${text}'`);
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new GatewayArgumentError(`${flag} must not carry credentials, a query or a fragment`);
  }
  return url.href.replace(/\/+$/, "");
}

function wholeNumber(flag: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max) {
    throw new GatewayArgumentError(`${flag} expects a whole number from 0 to ${max}, got '${text}'`);
  }
  return Number(text);
}

/** An address or address/prefix range, as a front end's is given to --trust-proxy. */
function proxyAddress(text: string): string {
  const [address = "", prefix, ...rest] = text.trim().split("/");
  const family = isIP(address);
  // A range of at least one bit: "believe everyone" (/0) would let any client name its address.
  const prefixFits =
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 6 ? 128 : 32));
  if (family === 0 || !prefixFits || rest.length > 0) {
    throw new GatewayArgumentError(
      `--trust-proxy expects the front ends' addresses or ranges (127.0.0.1,::1 or 10.0.0.0/8), got '${text}'`,
    );
  }
  return text.trim();
}

function failedSignInsLimit(text: string | undefined): GatewayServeOptions["failedSignIns"] {
  if (text === undefined) return undefined;
  const max = wholeNumber("--failed-sign-ins", text, 0, 10_000);
  return max === 0 ? null : { max, windowMs: FAILED_SIGN_IN_WINDOW_MS };
}

function oidcOptions(
  issuer: string | undefined,
  audience: string | undefined,
  tenants: string[],
): GatewayServeOptions["oidc"] {
  if (issuer === undefined) {
    if (audience !== undefined || tenants.length > 0) {
      throw new GatewayArgumentError("--oidc-audience and --oidc-tenant need --oidc-issuer");
    }
    return null;
  }
  if (audience === undefined || audience.trim() === "") {
    throw new GatewayArgumentError("--oidc-issuer needs --oidc-audience (the gateway's application id)");
  }
  const url = address("--oidc-issuer", issuer);
  // Plain http only for an issuer on this machine (a test's): keys read in clear could be anyone's.
  if (new URL(url).protocol !== "https:" && !/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) {
    throw new GatewayArgumentError("--oidc-issuer must be an https address");
  }
  if (tenants.some((tenant) => tenant.trim() === ""))
    throw new GatewayArgumentError("--oidc-tenant needs a value");
  // As given, trailing slash and all: tokens carry the issuer's identifier exactly.
  return { issuer, audience: audience.trim(), tenants: tenants.map((tenant) => tenant.trim()) };
}

export function parseGatewayArgs(argv: readonly string[]): GatewayServeOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: "string" },
        host: { type: "string" },
        upstream: { type: "string" },
        "upstream-auth": { type: "string" },
        "upstream-credentials": { type: "string" },
        database: { type: "string" },
        dist: { type: "string" },
        cert: { type: "string" },
        key: { type: "string" },
        domain: { type: "string" },
        "catalog-minutes": { type: "string" },
        "trust-proxy": { type: "string", multiple: true },
        "failed-sign-ins": { type: "string" },
        "release-day": { type: "string" },
        "oidc-issuer": { type: "string" },
        "oidc-audience": { type: "string" },
        "oidc-tenant": { type: "string", multiple: true },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new GatewayArgumentError((error as Error).message);
  }
  if (values.upstream === undefined)
    throw new GatewayArgumentError("--upstream (the service's address) is required");
  if (values.database === undefined || values.database === "") {
    throw new GatewayArgumentError("--database (a directory, or a postgres:// address) is required");
  }
  if ((values.cert === undefined) !== (values.key === undefined)) {
    throw new GatewayArgumentError("--cert and --key go together (TLS needs both files)");
  }
  if (values.host === "") throw new GatewayArgumentError("--host needs a value");
  if (values.domain !== undefined && !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(values.domain)) {
    throw new GatewayArgumentError(`--domain expects a domain such as example.com, got '${values.domain}'`);
  }
  const upstream = address("--upstream", values.upstream);
  const releaseBusinessDay =
    values["release-day"] === undefined ? undefined : releaseBusinessDayOf(values["release-day"]);
  if (releaseBusinessDay === null)
    throw new GatewayArgumentError(`${RELEASE_DAY_EXPECTED}, got '${values["release-day"]}'`);
  return {
    oidc: oidcOptions(values["oidc-issuer"], values["oidc-audience"], values["oidc-tenant"] ?? []),
    port: wholeNumber("--port", values.port, DEFAULT_GATEWAY_PORT, 65535),
    host: values.host ?? DEFAULT_GATEWAY_HOST,
    upstream,
    upstreamAuth:
      values["upstream-auth"] === undefined ? upstream : address("--upstream-auth", values["upstream-auth"]),
    database: values.database,
    dist: values.dist,
    cert: values.cert,
    key: values.key,
    domain: values.domain?.toLowerCase() ?? null,
    upstreamCredentials: values["upstream-credentials"],
    catalogMaxAgeMs: wholeNumber("--catalog-minutes", values["catalog-minutes"], 5, 24 * 60) * 60_000,
    trustProxy: (values["trust-proxy"] ?? []).flatMap((list) => list.split(",")).map(proxyAddress),
    failedSignIns: failedSignInsLimit(values["failed-sign-ins"]),
    releaseBusinessDay,
  };
}
