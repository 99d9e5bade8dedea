// The gateway's counters in Prometheus format (GET /metrics), through prom-client: one registry
// per gateway, so two gateways in one process (tests) count apart.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ProductId } from "../core/model";
import type { DataOperation, GatewayOperation } from "./gateway-operation";
import type { PurchaseEvents } from "./purchase/purchase-queue";
import type { SignInRefusal } from "./routes/auth-routes";

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly upstreamCalls = new Counter({
    name: "pcd_gateway_upstream_calls_total",
    help: "Calls the gateway made to the service, by operation and product.",
    labelNames: ["operation", "product"],
    registers: [this.registry],
  });
  private readonly dataRequests = new Counter({
    name: "pcd_gateway_upstream_data_requests_total",
    help: "Data requests the service charged (one per code answered), by operation, product and dataset.",
    labelNames: ["operation", "product", "dataset"],
    registers: [this.registry],
  });
  private readonly cacheHits = new Counter({
    name: "pcd_gateway_cache_hits_total",
    help: "Series answers served from the gateway's store, by operation and product.",
    labelNames: ["operation", "product"],
    registers: [this.registry],
  });
  private readonly coalesced = new Counter({
    name: "pcd_gateway_coalesced_requests_total",
    help: "Keys a member asked for while the same key was already being bought.",
    registers: [this.registry],
  });
  private readonly memberRequests = new Counter({
    name: "pcd_gateway_member_requests_total",
    help: "Requests members made to the gateway, by member and operation.",
    labelNames: ["member", "operation"],
    registers: [this.registry],
  });
  private readonly auditLost = new Counter({
    name: "pcd_gateway_served_audit_lost_total",
    help: "Audit rows of answers served that the database refused to keep (the answers were served).",
    registers: [this.registry],
  });
  private readonly purchaseStoreFailed = new Counter({
    name: "pcd_gateway_purchase_store_failures_total",
    help: "Charged calls whose audit row (written again later) or answers the database refused to keep (the answers were served), by what was refused.",
    labelNames: ["kept"],
    registers: [this.registry],
  });
  private readonly purchaseAuditWaiting = new Gauge({
    name: "pcd_gateway_purchase_audit_waiting",
    help: "Purchases whose audit row the database refused, waiting to be written again.",
    registers: [this.registry],
  });
  private readonly holdReleaseFailed = new Counter({
    name: "pcd_gateway_budget_hold_release_failures_total",
    help: "Members' budget holds the database did not delete when their requests ended (each counts until it expires).",
    registers: [this.registry],
  });
  private readonly signInRefusals = new Counter({
    name: "pcd_gateway_sign_in_refusals_total",
    help: "Password sign-ins refused before their check, by limit: attempts per client and name, failures per client, or a database that could not count.",
    labelNames: ["reason"],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: "pcd_gateway_request_duration_seconds",
    help: "Time from a member's request to the gateway's answer, by operation.",
    labelNames: ["operation"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 130],
    registers: [this.registry],
  });

  upstreamCall(operation: GatewayOperation, product: string): void {
    this.upstreamCalls.inc({ operation, product });
  }

  servedFromCache(operation: DataOperation, product: string, count: number): void {
    if (count > 0) this.cacheHits.inc({ operation, product }, count);
  }

  signInRefused(reason: SignInRefusal): void {
    this.signInRefusals.inc({ reason });
  }

  budgetHoldReleaseFailed(): void {
    this.holdReleaseFailed.inc();
  }

  servedAuditLost(rows: number): void {
    this.auditLost.inc(rows);
  }

  memberRequest(member: string, operation: GatewayOperation, seconds: number): void {
    this.memberRequests.inc({ member, operation });
    this.latency.observe({ operation }, seconds);
  }

  /** The purchase queue's events, counted. */
  purchaseEvents(): PurchaseEvents {
    return {
      charged: (product: ProductId, operation: DataOperation, datasets: readonly string[]) => {
        for (const dataset of datasets) this.dataRequests.inc({ operation, product, dataset });
      },
      coalesced: (count: number) => this.coalesced.inc(count),
      storeFailed: (what: "purchase audit" | "answers") => this.purchaseStoreFailed.inc({ kept: what }),
      auditWaiting: (count: number) => this.purchaseAuditWaiting.set(count),
    };
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
