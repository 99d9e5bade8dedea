// PCD.LIMITS: the allowance table, or one dataset's remaining data requests.
import type { Engine } from "../core/engine-api";
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
      const rows = await engine.limits();
      if (dataset === null) return buildLimitsTable(rows, product);
      return [[datasetRemaining(rows, dataset, product)]];
    },
  };
}
