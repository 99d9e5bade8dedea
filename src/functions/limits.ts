// PCD.LIMITS: the allowance table, or one dataset's remaining data requests.
import type { Engine, LimitsUnavailable } from "../core/engine-api";
import { PcdError, isPcdError } from "../core/errors";
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
          "The sandbox has no monthly data request limits: PCD.LIMITS shows the live service's allowances.",
        );
      }
      const { rows, unavailable } = await engine.limitsReport();
      // The product asked for could not be read: its cause is the answer (#N/A, retried
      // when passing), not an empty table or "not subscribed".
      const failed = unavailable.find((entry) => entry.product === product);
      if (failed) throw failed.error;
      if (dataset === null) return buildLimitsTable(rows, product, unavailable);
      try {
        return [[datasetRemaining(rows, dataset, product)]];
      } catch (error) {
        // A named product was read (else it failed above), so its "not subscribed" stands.
        throw product === null ? unreadCause(unavailable, error) : error;
      }
    },
  };
}

/**
 * A dataset not found while a product's limits could not be read may well belong to that
 * product: the read's failure is the honest answer, not a misleading "not subscribed".
 */
function unreadCause(unavailable: readonly LimitsUnavailable[], error: unknown): unknown {
  if (!isPcdError(error) || error.details.argument !== "dataset") return error;
  return unavailable[0]?.error ?? error;
}
