// PCD.LIMITS: the allowance table, or one dataset's remaining data requests.
import type { Engine, LimitsRow } from "../core/engine-api";
import { PcdError, isPcdError } from "../core/errors";
import { PRODUCTS, type ProductId } from "../core/model";
import { parseDataset } from "./arguments/dataset";
import { parseProduct } from "./arguments/product";
import type { CellTable } from "./cell-value";
import { buildLimitsTable, datasetRemaining } from "./shape/limits-table";
import type { CellJob } from "./streaming-cell";

export interface LimitsArguments {
  dataset: unknown;
  product: unknown;
}

export function limitsJob(engine: Engine, args: LimitsArguments): CellJob<CellTable> {
  return {
    watch: "meta",
    compute: async () => {
      const dataset = parseDataset(args.dataset);
      const product = parseProduct(args.product);
      await engine.ready();
      if (engine.getSettings().environment === "sandbox") {
        throw new PcdError(
          "not_found",
          "The sandbox has no monthly data request limits (spec 4.7): PCD.LIMITS shows the live service's allowances.",
        );
      }
      const rows = await engine.limits();
      if (dataset === null) return buildLimitsTable(rows, product);
      try {
        return [[datasetRemaining(rows, dataset, product)]];
      } catch (error) {
        await explainMissingProducts(engine, rows, product, error);
        throw error;
      }
    },
  };
}

/**
 * Engine.limits() leaves out a product whose Data Limits could not be read (e.g. during
 * maintenance). Before calling a dataset "not subscribed", ask for those products alone:
 * a failure then shows its real cause (#N/A) instead of a misleading #VALUE!.
 */
async function explainMissingProducts(
  engine: Engine,
  rows: readonly LimitsRow[],
  product: ProductId | null,
  error: unknown,
): Promise<void> {
  if (!isPcdError(error) || error.details.argument !== "dataset") return;
  const missing = (product === null ? PRODUCTS : [product]).filter(
    (candidate) => !rows.some((row) => row.product === candidate),
  );
  for (const candidate of missing) await engine.limitsOf(candidate);
}
