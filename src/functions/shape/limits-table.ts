// PCD.LIMITS cells: the full allowance table, or one dataset's remaining requests.
import type { LimitsRow, LimitsUnavailable } from "../../core/engine-api";
import { PRODUCTS, type ProductId } from "../../core/model";
import { argumentError, listWithin, shortened } from "../arguments/argument-error";
import { sameDatasetName } from "../arguments/dataset";
import { PRODUCT_LABELS } from "../arguments/product";
import type { CellTable } from "../cell-value";
import { fitMessage } from "../cell-errors";

export const LIMITS_HEADER = ["Product", "Dataset", "Remaining", "Total"];
/** After LIMITS_HEADER when a team gateway gives the signed-in member a budget. */
export const MEMBER_BUDGET_HEADER = ["Your budget", "Your remaining"];

/**
 * Header row, then one row per dataset in product order, datasets alphabetically. A product
 * whose limits could not be read gets one row in its place saying why, so its datasets do
 * not silently read as "not subscribed" (Remaining and Total empty, as no number is known).
 * Remaining and Total are the account's (the team's, through a gateway); the member's budget
 * columns follow only when a dataset shown has one, so other users' tables keep their shape.
 */
export function buildLimitsTable(
  rows: readonly LimitsRow[],
  product: ProductId | null,
  unavailable: readonly LimitsUnavailable[] = [],
): CellTable {
  const products = PRODUCTS.filter((candidate) => product === null || candidate === product);
  const withBudget = rows.some((row) => row.member !== undefined && products.includes(row.product));
  const budgetCells = (row: LimitsRow | null): CellTable[number] =>
    !withBudget ? [] : row?.member ? [row.member.budget, row.member.remaining] : ["", ""];
  const body = products.flatMap((candidate): CellTable => {
    const datasets: CellTable = rows
      .filter((row) => row.product === candidate)
      .sort((a, b) => a.dataset.localeCompare(b.dataset))
      .map((row) => [
        PRODUCT_LABELS[row.product],
        row.dataset,
        row.remaining,
        row.total,
        ...budgetCells(row),
      ]);
    const failed = unavailable.find((entry) => entry.product === candidate);
    return failed ? [...datasets, [...unreadRow(failed), ...budgetCells(null)]] : datasets;
  });
  return [[...LIMITS_HEADER, ...(withBudget ? MEMBER_BUDGET_HEADER : [])], ...body];
}

function unreadRow(entry: LimitsUnavailable): CellTable[number] {
  // Cells hold longer text, but the note is read like an error message: the same cut.
  return [
    PRODUCT_LABELS[entry.product],
    fitMessage(`Data Limits could not be read: ${entry.message}`),
    "",
    "",
  ];
}

/**
 * Remaining data requests of one dataset: what may still be asked for, so through a gateway
 * that gives the member a budget, the smaller of the team's remaining and the member's.
 */
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
  if (first && !second)
    return first.member ? Math.min(first.remaining, first.member.remaining) : first.remaining;
  if (first && second) {
    const examples = matches.map((row) => `PCD.LIMITS("${dataset}", "${productWord(row.product)}")`);
    throw argumentError(
      "product",
      `The dataset "${dataset}" exists in ${matches.map((row) => PRODUCT_LABELS[row.product]).join(" and ")}: add the product, e.g. ${examples.join(" or ")}.`,
      matches.map((row) => productWord(row.product)),
    );
  }
  const candidates = rows.filter((row) => product === null || row.product === product);
  const names = [...new Set(candidates.map((row) => row.dataset))].sort((a, b) => a.localeCompare(b));
  const scope = product === null ? "" : ` in ${PRODUCT_LABELS[product]}`;
  const prefix = `The dataset "${shortened(dataset)}" is not subscribed${scope}; datasets: `;
  if (names.length === 0) {
    throw argumentError(
      "dataset",
      `The dataset "${shortened(dataset)}" is not subscribed${scope}: no datasets are.`,
      [],
    );
  }
  throw argumentError("dataset", `${prefix}${listWithin(names, 250 - prefix.length)}.`, names);
}

function productWord(product: ProductId): string {
  return product === "energy_price" ? "energy" : product === "commodity_price" ? "commodity" : "industry";
}
