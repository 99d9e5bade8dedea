// The switches of PCD.VALUES and PCD.AVERAGE (headers, forecast, order, frequency) and of
// PCD.SERIES (history): the one
// contract the custom functions parse and the task pane writes. The values, their meaning
// in error messages, their labels in the pane and the defaults live here only, so a formula
// the pane writes is always one the function accepts (docs/formulas.md).
// Imported by src/functions and src/taskpane alike: it imports nothing (eslint.config.js).

export type HeadersOption = 0 | 1 | 2;
export type ForecastOption = 0 | 1 | 2;
export type OrderOption = 0 | 1;
/** What a PCD.SERIES card's table holds (and so what it buys). */
export type HistoryOption = 0 | 1;
/** Monthly rows, or averages of complete quarters or years. */
export type Frequency = "M" | "Q" | "Y";

export interface OptionChoice<T> {
  value: T;
  /** How an error message names the choice ("finals only"). */
  meaning: string;
  /** The task pane's label for it ("Finals only"). */
  label: string;
}

export const DEFAULT_HEADERS: HeadersOption = 1;
export const DEFAULT_FORECAST: ForecastOption = 1;
export const DEFAULT_ORDER: OrderOption = 0;
export const DEFAULT_FREQUENCY: Frequency = "M";
export const DEFAULT_HISTORY: HistoryOption = 0;

/** In value order; the meaning of the default says so. */
export const HEADERS_CHOICES: readonly OptionChoice<HeadersOption>[] = [
  { value: 0, meaning: "no headers", label: "No headers" },
  { value: 1, meaning: "column headers, the default", label: "Column headers" },
  { value: 2, meaning: "series line and column headers", label: "Series line and column headers" },
];
export const FORECAST_CHOICES: readonly OptionChoice<ForecastOption>[] = [
  { value: 0, meaning: "finals only", label: "Finals only" },
  { value: 1, meaning: "finals and forecasts, the default", label: "Finals and forecasts" },
  { value: 2, meaning: "forecasts only", label: "Forecasts only" },
];
export const ORDER_CHOICES: readonly OptionChoice<OrderOption>[] = [
  { value: 0, meaning: "oldest first, the default", label: "Oldest first" },
  { value: 1, meaning: "newest first", label: "Newest first" },
];
export const HISTORY_CHOICES: readonly OptionChoice<HistoryOption>[] = [
  {
    value: 0,
    meaning: "the latest 13 months and the forecasts, the default",
    label: "Latest 13 months and forecasts",
  },
  { value: 1, meaning: "every month since the series began", label: "Every month since the series began" },
];
export const FREQUENCY_CHOICES: readonly OptionChoice<Frequency>[] = [
  { value: "M", meaning: "monthly, the default", label: "Monthly" },
  { value: "Q", meaning: "quarterly", label: "Quarterly" },
  { value: "Y", meaning: "annual", label: "Annual" },
];

/** The words a formula may use for a frequency, in lower case (letters and names, in any case). */
export const FREQUENCY_NAMES: ReadonlyMap<string, Frequency> = new Map([
  ["m", "M"],
  ["monthly", "M"],
  ["month", "M"],
  ["q", "Q"],
  ["quarterly", "Q"],
  ["quarter", "Q"],
  ["y", "Y"],
  ["yearly", "Y"],
  ["year", "Y"],
  ["annual", "Y"],
  ["a", "Y"],
]);

/** The choices with the default first: the order a pane's select offers them. */
export function defaultFirst<T>(choices: readonly OptionChoice<T>[], fallback: T): OptionChoice<T>[] {
  return [
    ...choices.filter((choice) => choice.value === fallback),
    ...choices.filter((choice) => choice.value !== fallback),
  ];
}
