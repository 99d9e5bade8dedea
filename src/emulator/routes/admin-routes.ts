// Test controls under /__admin (only with --admin): clock, releases, revisions, faults,
// plan, quotas, counters. Documented in src/emulator/README.md.
import type { FastifyInstance } from "fastify";
import * as v from "valibot";
import { parseBody } from "../body-schema";
import { PRODUCT_IDS } from "../catalog";
import type { EmulatorState } from "../emulator-state";
import { monthDate } from "../months";
import { OPERATIONS } from "../operations";
import { ServiceError } from "../service-error";

const IsoTime = v.pipe(
  v.string("now must be an ISO date-time string"),
  v.check(
    (text) => !Number.isNaN(Date.parse(text)),
    "now must be an ISO date-time such as 2026-11-04T18:00:00Z",
  ),
);
const ClockSchema = v.object({ now: IsoTime });
const CodeList = v.array(v.pipe(v.string(), v.regex(/^\d+-\d+-\d+$/, "codes look like 68520-8-1")));
const ReleaseSchema = v.optional(
  v.nullable(v.object({ revise: v.optional(CodeList), unchanged: v.optional(CodeList) })),
);
const ReviseSchema = v.object({ codes: CodeList });
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const FaultSchema = v.object({
  operation: v.picklist([...OPERATIONS, "*"], `operation must be one of ${[...OPERATIONS, "*"].join(", ")}`),
  mode: v.picklist(
    ["status", "drop", "malformed", "latency"],
    "mode must be status, drop, malformed or latency",
  ),
  status: v.optional(v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)), 503),
  rate: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 1),
  latencyMs: v.optional(Count, 0),
  count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});
const PlanSchema = v.object({ history: v.optional(v.boolean()), allowance: v.optional(Count) });
const QuotaSchema = v.object({
  dataset: v.pipe(v.string(), v.nonEmpty()),
  remaining: Count,
  product: v.optional(v.picklist(PRODUCT_IDS)),
});

export function registerAdminRoutes(app: FastifyInstance, state: EmulatorState): void {
  const clockState = () => {
    const published = state.releases.sync();
    return { now: state.clock.now().toISOString(), latestConcludedMonth: monthDate(published) };
  };
  const checkCodes = (codes: readonly string[] | undefined): void => {
    const unknown = (codes ?? []).filter((code) => state.catalog.get(code) === undefined);
    if (unknown.length > 0) throw new ServiceError(400, `Unknown codes: ${unknown.join(", ")}`);
  };

  app.get("/__admin/clock", async () => clockState());

  app.post("/__admin/clock", async (request) => {
    const { now } = parseBody(ClockSchema, request.body, "clock");
    state.clock.set(new Date(now));
    return clockState();
  });

  app.post("/__admin/release", async (request) => {
    const overrides = parseBody(ReleaseSchema, request.body, "release") ?? {};
    checkCodes(overrides.revise);
    checkCodes(overrides.unchanged);
    const record = state.releases.releaseNow(overrides);
    return {
      ...clockState(),
      releaseDate: record.date,
      revised: [...record.revised].sort(),
      unchanged: [...record.unchanged].sort(),
    };
  });

  app.post("/__admin/revise", async (request) => {
    const { codes } = parseBody(ReviseSchema, request.body, "revise");
    checkCodes(codes);
    state.releases.reviseNow(codes);
    return { revised: codes };
  });

  app.post("/__admin/faults", async (request) => {
    const spec = parseBody(FaultSchema, request.body, "fault");
    state.faults.add({ ...spec, count: spec.count });
    return { faults: state.faults.active() };
  });

  app.delete("/__admin/faults", async () => {
    state.faults.clear();
    return { faults: [] };
  });

  app.get("/__admin/stats", async () => state.stats);

  app.post("/__admin/reset", async () => {
    state.resetCounters();
    return { reset: true };
  });

  app.post("/__admin/plan", async (request) => {
    const plan = parseBody(PlanSchema, request.body, "plan");
    if (plan.history !== undefined) state.options.history = plan.history;
    if (plan.allowance !== undefined) {
      state.options.allowance = plan.allowance;
      state.quotas.setAllowance(plan.allowance);
    }
    return { history: state.options.history, allowance: state.options.allowance };
  });

  app.post("/__admin/quota", async (request) => {
    const quota = parseBody(QuotaSchema, request.body, "quota");
    if (quota.remaining > state.quotas.allowance) {
      throw new ServiceError(
        400,
        `remaining (${quota.remaining}) exceeds the monthly allowance (${state.quotas.allowance})`,
      );
    }
    const products = PRODUCT_IDS.filter(
      (product) =>
        (quota.product === undefined || quota.product === product) &&
        state.catalog.datasets(product).includes(quota.dataset),
    );
    if (products.length === 0) throw new ServiceError(400, `Unknown dataset '${quota.dataset}'`);
    for (const product of products) state.quotas.setRemaining(product, quota.dataset, quota.remaining);
    return { dataset: quota.dataset, remaining: quota.remaining, products };
  });
}
