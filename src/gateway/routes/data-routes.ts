// The service's data API under <gateway>/api: Series Info from the gateway's catalog, Series
// Values and History from its store or bought once for the team, Data Limits from the service
// (briefly kept, so every member sees the team's true allowance), sandbox calls relayed as they
// are and never kept. Every data answer is audited: who was served, from the store or bought.
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from "fastify";
import { CATALOG_READ_AT_HEADER, catalogReadAt } from "../../core/http/catalog-read-at";
import type { ProductId } from "../../core/model";
import { fingerprintFor } from "../catalog/catalog-entry";
import { CatalogUnavailable, type GatewayCatalog } from "../catalog/gateway-catalog";
import { CodesRequestError, codesSegment, parseCodesRequest } from "../codes-request";
import type { DataOperation, GatewayOperation } from "../gateway-operation";
import type { GatewayMetrics } from "../gateway-metrics";
import type { TeamLimits } from "../limits/team-limits";
import { memberOfBearer } from "../member-access";
import type { OidcVerifier } from "../oidc/oidc-verifier";
import { answerKey } from "../purchase/answer-key";
import type { BuyListener, PurchaseItem, PurchaseOutcome, PurchaseQueue } from "../purchase/purchase-queue";
import type { AnswersInMemory } from "../store/answers-in-memory";
import type { ServedWriter } from "../store/served-writer";
import type { CachedAnswer, GatewayStore, Member, TimeRange } from "../store/gateway-store";
import type { BudgetGuard } from "../members/budget-guard";
import {
  UpstreamCutOff,
  UpstreamSignInError,
  type Upstream,
  type UpstreamAnswer,
} from "../upstream/upstream-client";
import { noDataCallAnswer, relay, sendMessage } from "./relay";

export const API_PREFIX = "/api";

/** The product base paths the gateway serves (docs/service.md §1), by their path segment. */
const PRODUCTS: Readonly<Record<string, ProductId>> = {
  energy_price: "energy_price",
  commodity_price: "commodity_price",
  industry_economics: "industry_economics",
};

export interface DataRouteSettings {
  store: GatewayStore;
  /** Answers served lately, kept in this gateway's memory in front of the store. */
  recent: AnswersInMemory;
  /** The audit of answers served, written behind the answers. */
  served: Pick<ServedWriter, "record">;
  upstream: Pick<Upstream, "get" | "heldAnswer">;
  catalog: GatewayCatalog;
  purchases: PurchaseQueue;
  metrics: GatewayMetrics;
  now: () => number;
  domain: string | null;
  /** Organisation sign-in; null: only the gateway's own tokens. */
  oidc: OidcVerifier | null;
  /** The team's Data Limits, kept briefly and moved by the gateway's own purchases. */
  teamLimits: Pick<TeamLimits, "answer">;
  /** Members' budgets, checked and held for the purchases of requests in flight. */
  budgets: Pick<BudgetGuard, "hold">;
  /** The allowance period that holds an instant: Data Limits reports the budget left in it. */
  periodAt: (at: Date) => TimeRange;
  /** A product's path at the service (the sandbox relays build theirs from it). */
  productPath: (product: ProductId) => string;
}

interface ProductParams {
  product: string;
}

interface CodesParams extends ProductParams {
  codes: string;
}

declare module "fastify" {
  interface FastifyRequest {
    member?: Member;
    /** A data request's keys have reached the purchase queue, or it needs none (`arriving`). */
    arrived?: () => void;
  }
}

export function productOf(segment: string): ProductId | null {
  return Object.hasOwn(PRODUCTS, segment) ? (PRODUCTS[segment] ?? null) : null;
}

export async function registerDataRoutes(app: FastifyInstance, settings: DataRouteSettings): Promise<void> {
  await app.register(
    async (api) => {
      api.addHook("preHandler", async (request, reply) => {
        const access = await memberOfBearer(request.headers.authorization, settings);
        if (!("member" in access)) return sendMessage(reply, access.status, access.message);
        request.member = access.member;
        const product = productOf((request.params as Partial<ProductParams>).product ?? "");
        if (product === null) {
          return sendMessage(
            reply,
            404,
            `Unknown product: the gateway serves ${Object.keys(PRODUCTS).join(", ")}.`,
          );
        }
        return undefined;
      });

      const timed =
        (
          operation: GatewayOperation,
          handler: (
            request: FastifyRequest,
            reply: FastifyReply,
            member: Member,
            product: ProductId,
          ) => Promise<FastifyReply>,
        ) =>
        async (request: FastifyRequest, reply: FastifyReply) => {
          const started = performance.now();
          const member = request.member as Member;
          const product = productOf((request.params as ProductParams).product) as ProductId;
          try {
            return await handler(request, reply, member, product);
          } catch (error) {
            return sendFailure(reply, error);
          } finally {
            // Whatever became of it, the request is no longer on its way to the queue. Its
            // answer's "close" is not enough: an answer queued behind another on a pipelined
            // connection that the member hangs up never has one.
            request.arrived?.();
            settings.metrics.memberRequest(member.email, operation, (performance.now() - started) / 1000);
          }
        };

      api.get<{ Params: ProductParams }>(
        "/:product/v1/export/series",
        timed("series_info", async (_request, reply, _member, product) => {
          const catalog = await settings.catalog.get(product);
          // When the copy was read from the service: members' engines learn from it whether a
          // release is out (a copy read before it is last month's, whatever time it is served).
          return reply
            .type("application/json; charset=utf-8")
            .header(CATALOG_READ_AT_HEADER, new Date(catalog.readAt).toISOString())
            .send(catalog.body);
        }),
      );

      // From the moment a member's data request is signed in, a part-filled call whose idle
      // window ends later waits for its keys (PurchaseQueue.arriving); when the request ends
      // without reaching the queue (refused, failed, hung up), the call stops waiting for it. A
      // route hook runs after the sign-in check above, so a request nobody signed cannot hold
      // the team's calls: a flood of them would otherwise keep every call to its longest wait.
      const onTheWay: preHandlerHookHandler = (request, reply, done) => {
        // A member who hung up while being signed in is not on the way (and "close" has passed).
        if (!reply.raw.closed) {
          const arrived = settings.purchases.arriving();
          request.arrived = arrived;
          reply.raw.once("close", arrived);
        }
        done();
      };
      for (const operation of ["series_values", "series_hist"] as const) {
        const folder = operation === "series_hist" ? "series_hist" : "series";
        api.get<{ Params: CodesParams }>(
          `/:product/v1/export/${folder}/:codes`,
          { preHandler: onTheWay },
          timed(operation, async (request, reply, member, product) =>
            serveData(
              settings,
              reply,
              member,
              product,
              operation,
              (request.params as CodesParams).codes,
              catalogReadAt(headerText(request.headers[CATALOG_READ_AT_HEADER])) ?? undefined,
            ),
          ),
        );
        api.get<{ Params: CodesParams }>(
          `/:product/v1/sandbox/export/${folder}/:codes`,
          timed(operation, async (request, reply, _member, product) => {
            // The path sent is made from the codes as read, never from the member's text: a
            // segment the grammar refuses (dots, backslashes, anything the service might echo)
            // gets the gateway's 400 and reaches nobody.
            let requested;
            try {
              requested = parseCodesRequest((request.params as CodesParams).codes);
            } catch (error) {
              if (error instanceof CodesRequestError) return sendMessage(reply, 400, error.message);
              throw error;
            }
            const path = `${settings.productPath(product)}/v1/sandbox/export/${folder}/${codesSegment(requested)}`;
            // The sandbox charges no data request: its 504 is no call perhaps charged either.
            return relay(reply, noDataCallAnswer(await settings.upstream.get(path, operation)));
          }),
        );
      }
      api.get<{ Params: ProductParams }>(
        "/:product/v1/sandbox/export/series",
        timed("series_info", async (_request, reply, _member, product) =>
          relay(
            reply,
            noDataCallAnswer(
              await settings.upstream.get(
                `${settings.productPath(product)}/v1/sandbox/export/series`,
                "series_info",
              ),
            ),
          ),
        ),
      );

      api.get<{ Params: ProductParams }>(
        "/:product/v1/data_limits",
        timed("data_limits", async (request, reply, member, product) => {
          const answer = await settings.teamLimits.answer(product);
          if (answer.status < 200 || answer.status > 299 || member.budget === null)
            return relay(reply, noDataCallAnswer(answer));
          return reply
            .type("application/json; charset=utf-8")
            .send(await withMemberBudget(settings, answer.body, member, product));
        }),
      );
    },
    { prefix: API_PREFIX },
  );
}

async function serveData(
  settings: DataRouteSettings,
  reply: FastifyReply,
  member: Member,
  product: ProductId,
  operation: DataOperation,
  segment: string,
  /** The read time of the catalog the member's engine holds, as a gateway gave it (if it said). */
  memberHolds: number | undefined,
): Promise<FastifyReply> {
  let requested;
  try {
    requested = parseCodesRequest(segment);
  } catch (error) {
    if (error instanceof CodesRequestError) return sendMessage(reply, 400, error.message);
    throw error;
  }
  const catalog = await settings.catalog.get(product, memberHolds);
  const items: PurchaseItem[] = requested.map((code) => {
    const entry = catalog.byCode.get(code.code);
    return {
      key: answerKey(product, operation, code),
      requested: code,
      dataType: entry?.dataType ?? defaultDataType(product),
      dataset: entry?.dataset ?? "",
      fingerprint: entry === undefined ? null : fingerprintFor(entry, operation),
      ...(operation === "series_values" && entry !== undefined
        ? { lastAvailableFinal: entry.lastAvailableFinal }
        : {}),
    };
  });
  const current = await keptAnswers(settings, items);
  const missing = items.filter((item) => !current.has(item.key));
  // Keys another request is buying are joined: the member holds of the budget only what their
  // own request buys, each key once (a code asked twice in one request is one purchase).
  const joined = settings.purchases.buyingNow(product, missing);
  const toBuy = new Map<string, PurchaseItem>();
  for (const item of missing) if (!joined.has(item.key)) toBuy.set(item.key, item);

  // The service said it is down a moment ago: nothing could be bought, so the request does not
  // wait to be packed with others for a call that would not be sent (upstream-downtime.ts).
  const held = toBuy.size > 0 ? settings.upstream.heldAnswer(operation) : null;
  if (held !== null) {
    reply.request.arrived?.();
    return answerFailure(settings, reply, held);
  }
  const needed = new Map<string, number>();
  for (const item of toBuy.values()) needed.set(item.dataset, (needed.get(item.dataset) ?? 0) + 1);
  const hold = await settings.budgets.hold(member, product, needed);
  if ("refusal" in hold) return sendMessage(reply, 403, hold.refusal);
  settings.purchases.joined(joined.size);

  // Keys another request started buying while this one's budget was checked: buy() joins them
  // instead, and they are that request's member's, as the keys joined above are.
  const joinedLate = new Set<string>();
  let bought: Map<string, PurchaseOutcome>;
  try {
    const heard: BuyListener = {
      // Each code's share of the hold goes as soon as its purchase is in the audit (or cost
      // nothing), not only when the request's last purchase ends: meanwhile it would count twice.
      bought: (item, outcome) => {
        const written =
          outcome.kind === "answer" && outcome.auditWaiting !== undefined
            ? outcome.auditWaiting
            : Promise.resolve();
        void written.then(() => hold.settle(item.dataset));
      },
      // A joined key costs this member nothing: its share goes at once, so that the member's
      // other requests are not refused for it while the other member's purchase is out.
      joined: (item) => {
        joinedLate.add(item.key);
        void hold.settle(item.dataset);
      },
    };
    const buying: Promise<Map<string, PurchaseOutcome>> =
      toBuy.size > 0
        ? settings.purchases.buy(member.email, product, operation, [...toBuy.values()], heard)
        : Promise.resolve(new Map());
    // The keys are with the queue (buy takes them before it awaits anything), or none is needed.
    reply.request.arrived?.();
    bought = await buying;
  } catch (error) {
    await hold.release();
    throw error;
  }
  // What was bought is in the audit now, and the budget counts it from there: the hold goes.
  // A purchase whose audit row the database refused keeps the hold until the row is written
  // (purchase/purchase-audit-writer.ts), so the budget counts it meanwhile; the answer does not
  // wait for that. A joined purchase's row is its own member's: this hold does not wait for it.
  const auditWaiting = [...bought].flatMap(([key, outcome]) =>
    outcome.kind === "answer" && outcome.auditWaiting !== undefined && !joinedLate.has(key)
      ? [outcome.auditWaiting]
      : [],
  );
  if (auditWaiting.length === 0) await hold.release();
  else void Promise.all(auditWaiting).then(() => hold.release());
  for (const [key, outcome] of joined) bought.set(key, await outcome);
  for (const outcome of bought.values())
    if (outcome.kind === "failed") return answerFailure(settings, reply, outcome.answer);

  const records: string[] = [];
  const served = [];
  const at = new Date(settings.now());
  let fromCache = 0;
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.key)) continue;
    seen.add(item.key);
    const kept = current.get(item.key);
    const outcome = bought.get(item.key);
    const record = kept?.recordJson ?? (outcome?.kind === "answer" ? outcome.recordJson : undefined);
    if (record === undefined) continue;
    // Bought for this request (or moments ago by another instance): kept in memory as served now.
    // A record short of the catalog is served this time only: the series' next request buys it
    // again once its while is over (purchase-queue.ts, SHORT_ANSWER_STANDS_MS).
    const short = outcome?.kind === "answer" && outcome.short === true;
    if (kept === undefined && item.fingerprint !== null && !short)
      settings.recent.keep({
        key: item.key,
        recordJson: record,
        fingerprint: item.fingerprint,
        boughtAt: at,
      });
    // A key joined from another request's purchase (before this request's budget check or
    // during it) is that request's member's: for this member it cost nothing, as a kept answer does.
    const source =
      kept !== undefined ||
      joined.has(item.key) ||
      joinedLate.has(item.key) ||
      (outcome?.kind === "answer" && outcome.source === "cache")
        ? "cache"
        : "purchase";
    if (source === "cache") fromCache += 1;
    records.push(record);
    served.push({
      at,
      member: member.email,
      product,
      operation,
      code: item.requested.code,
      dataset: item.dataset,
      source,
    } as const);
  }
  settings.served.record(served);
  settings.metrics.servedFromCache(operation, product, fromCache);
  // The records' JSON texts as kept: the answer is made without parsing them.
  return reply.type("application/json; charset=utf-8").send(`[${records.join(",")}]`);
}

/**
 * The current answers kept for these items (bought at the fingerprint the catalog gives now):
 * from this gateway's memory, and from the database for the rest (then kept in memory too).
 */
async function keptAnswers(
  settings: DataRouteSettings,
  items: readonly PurchaseItem[],
): Promise<Map<string, CachedAnswer>> {
  const found = new Map<string, CachedAnswer>();
  const unknown: PurchaseItem[] = [];
  for (const item of items) {
    const answer = settings.recent.current(item.key, item.fingerprint);
    if (answer === undefined) unknown.push(item);
    else found.set(item.key, answer);
  }
  if (unknown.length === 0) return found;
  const stored = await settings.store.answers.get(unknown.map((item) => item.key));
  for (const item of unknown) {
    const answer = stored.get(item.key);
    if (answer === undefined || item.fingerprint === null || answer.fingerprint !== item.fingerprint)
      continue;
    found.set(item.key, answer);
    settings.recent.keep(answer);
  }
  return found;
}

async function withMemberBudget(
  settings: DataRouteSettings,
  body: string,
  member: Member,
  product: ProductId,
): Promise<string> {
  const report: unknown = JSON.parse(body);
  if (typeof report !== "object" || report === null || Array.isArray(report)) return body;
  const at = new Date(settings.now());
  const period = settings.periodAt(at);
  // Requests in flight hold part of the budget: what a request is refused for counts here too.
  const held =
    member.budget === null
      ? new Map<string, number>()
      : await settings.store.holds.heldBy(member.email, product, at);
  const entries: Array<[string, unknown]> = [];
  for (const [dataset, limits] of Object.entries(report)) {
    if (typeof limits !== "object" || limits === null) {
      entries.push([dataset, limits]);
      continue;
    }
    const used = await settings.store.audit.purchasedBy(member.email, product, dataset, period);
    // Additive fields (allowed within v1): the member's own budget beside the team's allowance.
    entries.push([
      dataset,
      {
        ...limits,
        member_budget: member.budget,
        member_remaining_requests: Math.max(0, (member.budget ?? 0) - used - (held.get(dataset) ?? 0)),
        // When the budget comes back (the next release): the add-in asks again for a dataset
        // it was refused then, whatever its own release-day setting says.
        member_budget_resets_at: period.end.toISOString(),
      },
    ]);
  }
  // fromEntries defines each dataset as its own field: a dataset named "__proto__" stays one.
  const result = Object.fromEntries(entries);
  return JSON.stringify(result);
}

function answerFailure(
  settings: DataRouteSettings,
  reply: FastifyReply,
  answer: UpstreamAnswer,
): FastifyReply {
  // Downtime ends with a release: the catalog is read again once the service is back.
  if (answer.status === 503) settings.catalog.markStale();
  return relay(reply, answer);
}

function sendFailure(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof CatalogUnavailable) return relay(reply, noDataCallAnswer(error.answer));
  if (error instanceof UpstreamSignInError) return relay(reply, error.answer);
  // A relayed call (Series Info, Data Limits, sandbox data) whose connection broke: it charges
  // no data request, so not a 504 either.
  if (error instanceof UpstreamCutOff) return sendMessage(reply, 502, error.message);
  if (error instanceof Error && error.name === "TimeoutError") {
    // The gateway's own call before any purchase (its sign-in, its catalog read) or a relayed
    // Series Info or Data Limits: no data call left for this request, so not a 504, which
    // members' add-ins take as a data call perhaps charged.
    return sendMessage(
      reply,
      502,
      "The service did not answer the gateway in time; no data call was sent for this request.",
    );
  }
  if (error instanceof TypeError) return sendMessage(reply, 502, "The gateway could not reach the service.");
  return sendMessage(reply, 500, "The gateway failed to answer this request.");
}

function defaultDataType(product: ProductId): PurchaseItem["dataType"] {
  return product === "energy_price" ? "energy" : product === "commodity_price" ? "commodity" : "utilities";
}

/** A header's one value (a header sent twice is not believed). */
function headerText(value: string | string[] | undefined): string | null {
  return typeof value === "string" ? value : null;
}
