// The team gateway (docs/gateway.md): one fastify server that speaks the service's API to the
// team's members and buys from the service with the one Developer account.
import { readFileSync } from "node:fs";
import Fastify, { type FastifyInstance } from "fastify";
import type { ProductId } from "../core/model";
import { addAddinSiteHeaders, registerAddinFiles } from "../server/addin-site";
import { GatewayCatalog } from "./catalog/gateway-catalog";
import { GatewayMetrics } from "./gateway-metrics";
import type { FetchFunction } from "./oidc/fetch-within-origin";
import { oidcVerifier, type OidcSettings } from "./oidc/oidc-verifier";
import { TeamLimits } from "./limits/team-limits";
import { printRefusedAuditRows, type RefusedAuditRows } from "./purchase/refused-audit-rows";
import { PurchaseQueue } from "./purchase/purchase-queue";
import { FAILED_SIGN_IN_WINDOW_MS } from "./routes/failed-sign-ins";
import { registerAuthRoutes } from "./routes/auth-routes";
import { registerDataRoutes } from "./routes/data-routes";
import { AnswersInMemory } from "./store/answers-in-memory";
import type { GatewayStore } from "./store/gateway-store";
import { ServedWriter } from "./store/served-writer";
import { Upstream, type UpstreamSettings } from "./upstream/upstream-client";
import { BudgetGuard } from "./members/budget-guard";
import { allowancePeriodAt, type AllowancePeriod } from "./members/allowance-period";
import { agreedReleaseDay } from "./members/release-day";

export interface GatewaySettings {
  upstream: UpstreamSettings;
  store: GatewayStore;
  now: () => number;
  /** Members' addresses must be in this domain (example.com); null: any address. */
  domain?: string | null;
  /** Organisation sign-in: bearer tokens of this OpenID Connect issuer are accepted besides the gateway's own. */
  oidc?: GatewayOidcSettings | null;
  /** The built add-in to serve beside the API (one origin for pane and data). */
  dist?: string;
  tls?: { cert: string; key: string };
  catalogMaxAgeMs?: number;
  limitsMaxAgeMs?: number;
  /**
   * The monthly release's business day: members' budgets reset then, as the team's allowance
   * does (members/allowance-period.ts). Kept in the store for the other instances and the usage
   * report; when absent, the one kept there (else DEFAULT_RELEASE_BUSINESS_DAY).
   */
  releaseBusinessDay?: number;
  /**
   * The front ends in front of the gateway (addresses or ranges): a request from one of them is
   * taken to come from the client its X-Forwarded-For names, so that sign-in attempts are
   * counted per client, not all under the front end's address. Empty: the connection's address.
   */
  trustProxy?: readonly string[];
  /** A part-filled upstream call waits until no member's key to buy came for this long... */
  packingWindowMs?: number;
  /** ...or this long while one member alone is asking... */
  packingSoloWindowMs?: number;
  /** ...but never longer than this for its first code. */
  packingMaxWaitMs?: number;
  signInAttempts?: { max: number; windowMs: number };
  /**
   * Failed password checks one client may have in a window, whatever the names; null: no such
   * limit. When absent: DEFAULTS.failedSignIns where the gateway knows its clients' addresses
   * (front ends given in trustProxy, or TLS served itself), else none (a front end's address
   * would be everyone's, and anyone's failures could hold the whole team).
   */
  failedSignIns?: { max: number; windowMs: number } | null;
  /** Answer text kept in memory in front of the store (characters; ANSWERS_IN_MEMORY_CHARS when absent). */
  answersInMemoryChars?: number;
  /**
   * Where purchases whose audit rows the database refused are reported: as each row starts
   * waiting, when it is written after all, and when nothing will write it; and the calls still
   * out when the stop stopped waiting for them (standard error when absent:
   * purchase/refused-audit-rows.ts).
   */
  refusedAuditRows?: RefusedAuditRows;
  /** The packing waits' timers and monotonic clock (setTimeout and performance.now outside tests). */
  later?: (run: () => void, ms: number) => void;
  elapsed?: () => number;
}

export interface GatewayOidcSettings extends OidcSettings {
  /** Reads the issuer's discovery document; the global fetch when absent. */
  fetch?: FetchFunction;
  /** The least time between two reads of the issuer's keys (30 s when absent). */
  keysCooldownMs?: number;
}

export const DEFAULTS = {
  catalogMaxAgeMs: 5 * 60_000,
  limitsMaxAgeMs: 30_000,
  /** A Data Limits answer read during purchases is read again once they have been over this long. */
  limitsSettleQuietMs: 2_000,
  // Members who open their workbooks together reach the gateway over seconds on a busy
  // machine, with gaps between one member's calls as long as its engine takes to read an answer
  // (W7 in BENCHMARKS.md counts the calls this packs). A lone member's new code waits 300 ms.
  packingWindowMs: 1_000,
  packingSoloWindowMs: 300,
  packingMaxWaitMs: 5_000,
  signInAttempts: { max: 10, windowMs: 60_000 },
  // Only failures count: members behind one office address who sign in never use it up. One
  // address trying a password on every member's name gets 3 tries a minute for them all.
  failedSignIns: { max: 30, windowMs: FAILED_SIGN_IN_WINDOW_MS },
} as const;

const productPath = (product: ProductId): string => `/${product}`;

/**
 * Whether a request's address is its client's: the front ends are given (their forwarded
 * addresses are believed), or the gateway serves TLS itself (Office's add-ins reach it directly).
 * Otherwise it is most likely behind a front end whose address every member shares.
 */
export function knowsClientAddresses(settings: Pick<GatewaySettings, "trustProxy" | "tls">): boolean {
  return (settings.trustProxy?.length ?? 0) > 0 || settings.tls !== undefined;
}

export interface Gateway {
  app: FastifyInstance;
  metrics: GatewayMetrics;
  catalog: GatewayCatalog;
  /** The release day budgets count by, and the one kept before when this start replaced it. */
  releaseDay: { day: number; replaced: string | null };
}

export async function buildGateway(settings: GatewaySettings): Promise<Gateway> {
  const metrics = new GatewayMetrics();
  // Each call sent is counted as it leaves (a call held back for downtime is none).
  const upstream = new Upstream({
    ...settings.upstream,
    sending: (operation, upstreamPath) => {
      settings.upstream.sending?.(operation, upstreamPath);
      metrics.upstreamCall(operation, upstreamPath.split("/")[1] ?? "");
    },
  });
  const catalog = new GatewayCatalog({
    upstream,
    saved: settings.store.catalogs,
    now: settings.now,
    maxAgeMs: settings.catalogMaxAgeMs ?? DEFAULTS.catalogMaxAgeMs,
    productPath,
  });
  const teamLimits = new TeamLimits({
    read: (product) => upstream.get(`${productPath(product)}/v1/data_limits`, "data_limits"),
    now: settings.now,
    maxAgeMs: settings.limitsMaxAgeMs ?? DEFAULTS.limitsMaxAgeMs,
    settleQuietMs: DEFAULTS.limitsSettleQuietMs,
  });
  const refusedRows = settings.refusedAuditRows ?? printRefusedAuditRows;
  const purchases = new PurchaseQueue({
    upstream,
    store: settings.store,
    productPath,
    now: settings.now,
    idleMs: settings.packingWindowMs ?? DEFAULTS.packingWindowMs,
    soloIdleMs: settings.packingSoloWindowMs ?? DEFAULTS.packingSoloWindowMs,
    maxWaitMs: settings.packingMaxWaitMs ?? DEFAULTS.packingMaxWaitMs,
    later: settings.later,
    elapsed: settings.elapsed,
    events: {
      ...metrics.purchaseEvents(),
      auditRowWaiting: (purchase) => refusedRows.waiting(purchase),
      auditRowWritten: (purchase) => refusedRows.written(purchase),
      auditLost: (lost) => refusedRows.lost(lost),
      cutOff: (calls) => refusedRows.cutOff(calls),
      unlisted: (product) => catalog.markStale(product),
      called: (product) => teamLimits.callStarted(product),
      ended: (product, _operation, charged, known) => teamLimits.callEnded(product, charged, known),
    },
  });

  const app = Fastify({
    // Off on purpose: requests carry passwords and tokens; nothing of them is written anywhere.
    logger: false,
    forceCloseConnections: true,
    // 40 codes with their options make a path segment of about a thousand characters.
    routerOptions: { maxParamLength: 4096 },
    ...(settings.trustProxy !== undefined && settings.trustProxy.length > 0
      ? { trustProxy: [...settings.trustProxy] }
      : {}),
    ...(settings.tls
      ? { https: { cert: readFileSync(settings.tls.cert), key: readFileSync(settings.tls.key) } }
      : {}),
  });
  if (settings.dist !== undefined) addAddinSiteHeaders(app, settings.dist, settings.tls !== undefined);
  app.get("/healthz", async (_request, reply) =>
    reply.header("cache-control", "no-store").send({ status: "ok" }),
  );
  app.get("/metrics", async (_request, reply) =>
    reply
      .type(metrics.registry.contentType)
      .header("cache-control", "no-store")
      .send(await metrics.text()),
  );
  const served = new ServedWriter(settings.store.audit, (rows) => metrics.servedAuditLost(rows));
  const releaseDay = await agreedReleaseDay(settings.store.releaseDay, settings.releaseBusinessDay);
  const periodAt = (at: Date): AllowancePeriod => allowancePeriodAt(at, releaseDay.day);
  const budgets = new BudgetGuard(settings.store.holds, settings.now, periodAt, () =>
    metrics.budgetHoldReleaseFailed(),
  );
  // One hook, so that the order is this one (Fastify runs a server's onClose hooks last added
  // first), all before the store may be closed: the audit rows of the last answers; the
  // purchases still out (no call is sent any more; those out are waited for, as long as a call
  // may take, and their rows written; a call still out then is reported); the purchases' rows
  // the database refused until then (one more try; what it still refuses is reported); then the
  // budget holds of requests cut off by the stop and of purchases whose rows waited, released
  // now rather than when they expire.
  app.addHook("onClose", async () => {
    await served.flushed();
    await purchases.stop();
    await budgets.releaseAll();
    // Requests that were still waiting for purchases may have been answered meanwhile.
    await served.flushed();
  });
  const domain = settings.domain ?? null;
  const oidc =
    settings.oidc === undefined || settings.oidc === null
      ? null
      : oidcVerifier({
          ...settings.oidc,
          domain,
          now: settings.now,
          fetch: settings.oidc.fetch ?? ((input, init) => fetch(input, init)),
        });
  await registerAuthRoutes(app, {
    store: settings.store,
    now: settings.now,
    domain,
    signInAttempts: settings.signInAttempts ?? DEFAULTS.signInAttempts,
    failedSignIns:
      settings.failedSignIns !== undefined
        ? settings.failedSignIns
        : knowsClientAddresses(settings)
          ? DEFAULTS.failedSignIns
          : null,
    refused: (reason) => metrics.signInRefused(reason),
  });
  await registerDataRoutes(app, {
    store: settings.store,
    recent: new AnswersInMemory(settings.answersInMemoryChars),
    served,
    upstream,
    catalog,
    purchases,
    metrics,
    now: settings.now,
    domain,
    oidc,
    teamLimits,
    budgets,
    periodAt,
    productPath,
  });
  if (settings.dist !== undefined) await registerAddinFiles(app, settings.dist);
  return { app, metrics, catalog, releaseDay };
}

export interface RunningGateway extends Gateway {
  url: string;
  close(): Promise<void>;
}

export async function startGateway(
  settings: GatewaySettings,
  listen: { port: number; host: string },
): Promise<RunningGateway> {
  const gateway = await buildGateway(settings);
  await gateway.app.listen(listen);
  const address = gateway.app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : listen.port;
  const host = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  const scheme = settings.tls ? "https" : "http";
  return { ...gateway, url: `${scheme}://${host}:${port}`, close: () => gateway.app.close() };
}
