// PCD.LIMITS cells: the full allowance table, or one dataset's remaining requests.
import type { LimitsRow } from "../../core/engine-api";
import { PRODUCTS, type ProductId } from "../../core/model";
import { argumentError, listWithin, shortened } from "../arguments/argument-error";
import { sameDatasetName } from "../arguments/dataset";
import { PRODUCT_LABELS } from "../arguments/product";
import type { CellTable } from "../cell-value";

export const LIMITS_HEADER = ["Product", "Dataset", "Remaining", "Total"];

/** Header row, then one row per dataset in product order, datasets alphabetically. */
export function buildLimitsTable(rows: readonly LimitsRow[], product: ProductId | null): CellTable {
  const selected = rows
    .filter((row) => product === null || row.product === product)
    .sort(
      (a, b) =>
        PRODUCTS.indexOf(a.product) - PRODUCTS.indexOf(b.product) || a.dataset.localeCompare(b.dataset),
    );
  return [
    LIMITS_HEADER,
    ...selected.map((row) => [PRODUCT_LABELS[row.product], row.dataset, row.remaining, row.total]),
  ];
}

/** Remaining data requests of one dataset. */
export function datasetRemaining(
  rows: readonly LimitsRow[],
  dataset: string,
  product: ProductId | null,
): number {
  const named = rows.filter((row) => sameDatasetName(row.dataset, dataset));
  const matches = (product === null ? named : named.filter((row) => row.product === product)).sort(
    (a, b) => PRODUCTS.indexOf(a.product) - PRODUCTS.indexOf(b.product),
  );
  const [first, second] = matches;
  if (first && !second) return first.remaining;
  if (first && second) {
    const examples = matches.map((row) => `PCD.LIMITS("${dataset}", "${productWord(row.product)}")`);
    throw argumentError(
      "product",
      `dataset "${dataset}" exists in ${matches.map((row) => PRODUCT_LABELS[row.product]).join(" and ")}: add the product, e.g. ${examples.join(" or ")}.`,
      matches.map((row) => productWord(row.product)),
    );
  }
  const candidates = rows.filter((row) => product === null || row.product === product);
  const names = [...new Set(candidates.map((row) => row.dataset))].sort((a, b) => a.localeCompare(b));
  const scope = product === null ? "" : ` in ${PRODUCT_LABELS[product]}`;
  const prefix = `dataset "${shortened(dataset)}" is not subscribed${scope}; datasets: `;
  if (names.length === 0) {
    throw argumentError(
      "dataset",
      `dataset "${shortened(dataset)}" is not subscribed${scope}: no datasets are.`,
      [],
    );
  }
  throw argumentError("dataset", `${prefix}${listWithin(names, 250 - prefix.length)}.`, names);
}

function productWord(product: ProductId): string {
  return product === "energy_price" ? "energy" : product === "commodity_price" ? "commodity" : "industry";
}
