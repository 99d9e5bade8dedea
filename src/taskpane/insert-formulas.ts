// What the Insert actions write: the user's choices turned into one formula per series.
// Series that take no currency or unit (industry cost indexes and location factors) get
// none, whatever the chooser says, so a mixed selection still inserts valid formulas.
import {
  DEFAULT_FORECAST,
  DEFAULT_HEADERS,
  DEFAULT_ORDER,
  type ForecastOption,
  type HeadersOption,
  type OrderOption,
} from "../contracts/formula-options";
import type { SeriesInfo } from "../core/model";
import {
  averageFormula,
  escalateFormula,
  infoFormula,
  valueFormula,
  valuesFormula,
} from "../workbook/formula-text";
import { takesCurrencyAndUnit } from "./series-filters";

export type FormulaKind = "values" | "value" | "info" | "escalate" | "average";

export interface FormulaChoices {
  kind: FormulaKind;
  currency: string;
  unit: string;
  startMonth: string;
  endMonth: string;
  month: string;
  headers: HeadersOption;
  forecast: ForecastOption;
  order: OrderOption;
  field: string;
  /** PCD.ESCALATE's amount: a number or a cell reference. */
  amount: string;
}

export const DEFAULT_CHOICES: FormulaChoices = {
  kind: "values",
  currency: "",
  unit: "",
  startMonth: "",
  endMonth: "",
  month: "",
  headers: DEFAULT_HEADERS,
  forecast: DEFAULT_FORECAST,
  order: DEFAULT_ORDER,
  field: "",
  amount: "",
};

/** The formulas the Insert button writes, one per series (throws FormulaTextError on bad input). */
export function buildFormulas(series: readonly SeriesInfo[], choices: FormulaChoices): string[] {
  return series.map((info) => {
    const priced = takesCurrencyAndUnit(info);
    const currency = priced ? choices.currency : null;
    const unit = priced ? choices.unit : null;
    switch (choices.kind) {
      case "values":
        return valuesFormula(info.code, {
          currency,
          unit,
          startMonth: choices.startMonth,
          endMonth: choices.endMonth,
          headers: choices.headers,
          forecast: choices.forecast,
          order: choices.order,
        });
      case "value":
        return valueFormula(info.code, { month: choices.month, currency, unit });
      case "info":
        return infoFormula(info.code, choices.field);
      case "escalate":
        return escalateFormula(info.code, {
          amount: choices.amount,
          fromMonth: choices.startMonth,
          toMonth: choices.endMonth,
          currency,
          unit,
        });
      case "average":
        return averageFormula(info.code, {
          startMonth: choices.startMonth,
          endMonth: choices.endMonth,
          currency,
          unit,
        });
    }
  });
}

/** How far a formula's result reaches: 1×1 for one value, the spilled table's size otherwise. */
export interface ResultSize {
  rows: number;
  columns: number;
}

/** Where several tables go: each below the previous one, or each to the right of it. */
export type StackDirection = "below" | "beside";

/** A formula and the block its result fills, as offsets from the selected cell. */
export interface PlacedFormula {
  formula: string;
  row: number;
  column: number;
  rows: number;
  columns: number;
}

/**
 * Where each formula goes: one value per row (a block of adjacent cells), or tables one
 * after the other with an empty row (below) or column (beside) between their full extents,
 * so no table spills into the next.
 */
export function placeFormulas(
  formulas: readonly string[],
  sizes: readonly ResultSize[],
  stack: StackDirection,
): PlacedFormula[] {
  let row = 0;
  let column = 0;
  return formulas.map((formula, index) => {
    const size = sizes[index] ?? { rows: 1, columns: 1 };
    const placed = { formula, row, column, rows: size.rows, columns: size.columns };
    const table = size.rows > 1 || size.columns > 1;
    if (stack === "beside" && table) column += size.columns + 1;
    else row += size.rows + (table ? 1 : 0);
    return placed;
  });
}
