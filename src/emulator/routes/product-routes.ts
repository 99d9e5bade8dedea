// The data operations of docs/service.md §4.2-§4.5 and their sandbox variants (§4.7), for the three
// products: /<product>/v1/export/series[/<codes>], /series_hist/<codes>, /v1/data_limits.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { PRODUCT_IDS, type DataType, type ProductId, type SeriesDefinition } from "../catalog";
import { CodesSegmentError, parseCodesSegment, type CodeRequestItem } from "../codes-segment";
import type { EmulatorState } from "../emulator-state";
import type { Operation } from "../operations";
import { guardRequest } from "../request-guard";
import { seriesInfoRecord } from "../series-info-record";
import { buildSeriesValuesRecord } from "../series-values-record";
import { ServiceError } from "../service-error";
import { waitWhileClientWaits } from "../client-wait";

interface ProductParams {
  product: string;
}

interface CodesParams extends ProductParams {
  codes: string;
}

const DATA_TYPE_NAMES: Readonly<Record<DataType, string>> = {
  price: "prices",
  utility: "utilities prices and costs",
  location_factor: "plant location factors",
  cost_index: "plant construction cost indexes",
};

function productOf(params: ProductParams): ProductId {
  const product = PRODUCT_IDS.find((id) => id === params.product);
  if (product === undefined) {
    throw new ServiceError(
      404,
      `Unknown product base path '/${params.product}': expected /${PRODUCT_IDS.join(", /")}`,
    );
  }
  return product;
}

export function registerProductRoutes(app: FastifyInstance, state: EmulatorState): void {
  const counted = (operation: Operation) => ({ onRequest: async () => state.countCall(operation) });
  for (const sandbox of [false, true]) {
    const prefix = sandbox ? "/:product/v1/sandbox/export" : "/:product/v1/export";
    app.get<{ Params: ProductParams }>(`${prefix}/series`, counted("series_info"), (request, reply) =>
      seriesInfo(state, request, reply, sandbox),
    );
    app.get<{ Params: CodesParams }>(`${prefix}/series/:codes`, counted("series_values"), (request, reply) =>
      seriesValues(state, request, reply, "values", sandbox),
    );
    app.get<{ Params: CodesParams }>(
      `${prefix}/series_hist/:codes`,
      counted("series_hist"),
      (request, reply) => seriesValues(state, request, reply, "history", sandbox),
    );
  }
  app.get<{ Params: ProductParams }>("/:product/v1/data_limits", counted("data_limits"), (request, reply) =>
    dataLimits(state, request, reply),
  );
}

async function seriesInfo(
  state: EmulatorState,
  request: FastifyRequest<{ Params: ProductParams }>,
  reply: FastifyReply,
  sandbox: boolean,
): Promise<FastifyReply> {
  const product = productOf(request.params);
  if (!(await guardRequest(state, request, reply, "series_info", true))) return reply;
  if (sandbox) state.quotas.chargeSandboxCall(state.today(), "series_info");
  else state.quotas.chargeLiveCall(state.today(), true);
  const records = state.catalog
    .ofProduct(product)
    .filter((series) => state.isSubscribed(series.dataset))
    .map((series) => seriesInfoRecord(series, state.releases.view(series), state.options));
  await waitWhileClientWaits(reply, state.options.latencyMs, state.wait);
  return reply.send(records);
}

async function seriesValues(
  state: EmulatorState,
  request: FastifyRequest<{ Params: CodesParams }>,
  reply: FastifyReply,
  kind: "values" | "history",
  sandbox: boolean,
): Promise<FastifyReply> {
  const product = productOf(request.params);
  const operation = kind === "values" ? "series_values" : "series_hist";
  if (!(await guardRequest(state, request, reply, operation, true))) return reply;
  const items = parseCodes(request.params.codes);
  // Unknown codes, codes of other products and codes outside the subscription are left out and cost nothing.
  const known = items.flatMap((item) => {
    const series = state.catalog.get(item.code);
    return series !== undefined && series.product === product && state.isSubscribed(series.dataset)
      ? [{ item, series }]
      : [];
  });
  rejectMixedDataTypes(known.map(({ series }) => series));
  if (kind === "history" && !state.options.history) {
    throw new ServiceError(
      403,
      "Series Values History is not included in the Data Automation Option of the plan",
    );
  }
  if (sandbox) {
    state.quotas.chargeSandboxCall(state.today(), operation);
  } else {
    state.quotas.chargeLiveCall(state.today(), false);
    const perDataset = countPerDataset(known.map(({ series }) => series));
    state.quotas.chargeDataRequests(product, perDataset);
    state.countDataRequests(product, perDataset);
  }
  const records = known.map(({ item, series }) =>
    buildSeriesValuesRecord(
      series,
      state.releases.view(series),
      { kind, sandbox, item },
      state.options,
      state.model,
    ),
  );
  await waitWhileClientWaits(
    reply,
    state.options.latencyMs + state.options.latencyPerCodeMs * items.length,
    state.wait,
  );
  return reply.send(records);
}

async function dataLimits(
  state: EmulatorState,
  request: FastifyRequest<{ Params: ProductParams }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const product = productOf(request.params);
  if (!(await guardRequest(state, request, reply, "data_limits", true))) return reply;
  state.quotas.chargeLiveCall(state.today(), false);
  const datasets = state.catalog.datasets(product).filter((dataset) => state.isSubscribed(dataset));
  const report = state.quotas.report(product, datasets);
  await waitWhileClientWaits(reply, state.options.latencyMs, state.wait);
  return reply.send(report);
}

function parseCodes(segment: string): CodeRequestItem[] {
  try {
    return parseCodesSegment(segment);
  } catch (error) {
    if (error instanceof CodesSegmentError) throw new ServiceError(400, error.message);
    throw error;
  }
}

/** Industry economics: one call may hold codes of one data type only (docs/service.md §4.6). */
function rejectMixedDataTypes(series: readonly SeriesDefinition[]): void {
  const types = [...new Set(series.map((definition) => definition.dataType))];
  if (types.length > 1) {
    throw new ServiceError(
      400,
      `A call may contain codes of one data type only; this call mixes ${types
        .map((type) => DATA_TYPE_NAMES[type])
        .join(" and ")}`,
    );
  }
}

function countPerDataset(series: readonly SeriesDefinition[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const definition of series) counts.set(definition.dataset, (counts.get(definition.dataset) ?? 0) + 1);
  return counts;
}
