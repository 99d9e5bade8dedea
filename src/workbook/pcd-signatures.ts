// The arguments of each PCD function as the pane's "Edit cell" form shows them, in the
// order Excel passes them (src/functions/functions.ts declares them; a test keeps the two
// lists equal, since the pane may not import the functions). The switches' hints come from
// the formula options contract the functions parse with (src/contracts/formula-options.ts).
import {
  DEFAULT_FORECAST,
  DEFAULT_FREQUENCY,
  DEFAULT_HEADERS,
  DEFAULT_ORDER,
  FORECAST_CHOICES,
  FREQUENCY_CHOICES,
  HEADERS_CHOICES,
  ORDER_CHOICES,
  defaultFirst,
  type OptionChoice,
} from "../contracts/formula-options";

/** text: written in quotes; number: written as typed; month: a date as "YYYY-MM" text. */
export type ArgumentKind = "text" | "number" | "month";

export interface ArgumentSpec {
  /** The parameter's name in functions.ts. */
  name: string;
  label: string;
  kind: ArgumentKind;
  hint?: string;
}

const text = (name: string, label: string, hint?: string): ArgumentSpec => ({
  name,
  label,
  kind: "text",
  hint,
});
const number = (name: string, label: string, hint?: string): ArgumentSpec => ({
  name,
  label,
  kind: "number",
  hint,
});
const month = (name: string, label: string): ArgumentSpec => ({
  name,
  label,
  kind: "month",
  hint: "YYYY-MM",
});

/** "1 column headers, 0 no headers, 2 series line and column headers": the default first. */
function choicesHint<T>(choices: readonly OptionChoice<T>[], fallback: T): string {
  return defaultFirst(choices, fallback)
    .map((choice) => `${String(choice.value)} ${choice.label.toLowerCase()}`)
    .join(", ");
}

const CODE = text("code", "Series code");
const CURRENCY = text("currency", "Currency", "empty: the series default");
const UNIT = text("unit", "Unit", "empty: the series default");
const PRODUCT = text("product", "Product", "energy, commodity or industry");

export const PCD_SIGNATURES: Readonly<Record<string, readonly ArgumentSpec[]>> = {
  VALUES: [
    CODE,
    CURRENCY,
    UNIT,
    month("start_date", "From"),
    month("end_date", "To"),
    number("headers", "Headers", choicesHint(HEADERS_CHOICES, DEFAULT_HEADERS)),
    number("forecast", "Forecasts", choicesHint(FORECAST_CHOICES, DEFAULT_FORECAST)),
    number("order", "Order", choicesHint(ORDER_CHOICES, DEFAULT_ORDER)),
    text("frequency", "Frequency", choicesHint(FREQUENCY_CHOICES, DEFAULT_FREQUENCY)),
  ],
  VALUE: [CODE, month("date", "Month"), CURRENCY, UNIT],
  INFO: [CODE, text("field", "Field", "empty: every field")],
  LIMITS: [text("dataset", "Dataset"), PRODUCT],
  SEARCH: [text("text", "Search text"), PRODUCT, number("max_rows", "Most rows", "1 to 500")],
  ESCALATE: [
    number("amount", "Amount"),
    CODE,
    month("from_date", "From month"),
    month("to_date", "To month"),
    CURRENCY,
    UNIT,
  ],
  CHANGE: [CODE, month("from_date", "From month"), month("to_date", "To month"), CURRENCY, UNIT],
  AVERAGE: [
    CODE,
    month("start_date", "From"),
    month("end_date", "To"),
    CURRENCY,
    UNIT,
    number("forecast", "Forecasts", "1 forecasts fill months without a final, 0 finals only"),
  ],
  RELOCATE: [
    number("amount", "Amount"),
    text("from_code", "From location code"),
    text("to_code", "To location code"),
    month("date", "Month"),
  ],
  SERIES: [CODE, CURRENCY, UNIT, number("history", "History", "0 latest 13 months, 1 every month")],
};
