// The five PCD custom functions as Excel sees them. custom-functions-metadata-plugin reads
// this file's JSDoc to generate functions.json and appends CustomFunctions.associate(...)
// calls, so every function here must stay a top-level named function with its JSDoc, and
// the file must have no side effects beyond imports.
//
// Parameter types are what Excel coerces to: `unknown` becomes Excel's "any" (so a code
// typed without quotes arrives as a number and we can explain the mistake) and `number`
// makes Excel convert text such as "1". Omitted optional arguments arrive as null whatever
// the declared type, so every argument goes through a parser that accepts unknown input.
//
// All five are streaming: a cell keeps its invocation and is set again when its data
// changes (after a refresh, a sign-in or a catalog update), and only then.
import { runCell } from "./cell-runner";
import { infoJob } from "./info";
import { limitsJob } from "./limits";
import { searchJob } from "./search";
import { valueJob } from "./value";
import { valuesJob } from "./values";

/**
 * Monthly values of a PCD series as a table that spills: Date, Value and, when forecasts are included, Status ("final" or "forecast").
 * @customfunction VALUES
 * @helpurl https://localhost:3000/help.html#values
 * @param code Assessment code as text in quotes, e.g. "68520-8-1" (three groups of digits).
 * @param [currency] Currency short name (any case, e.g. "EUR", "USD cent") or ID (1 USD, 2 USD cent, 3 EUR, 4 CNY, 5 JPY, 9 GBP). Must be one the series offers. Default: the series' default currency.
 * @param [unit] Unit short name (any case, e.g. "MWh", "mt") or ID. Must be one the series offers. Default: the series' default unit.
 * @param [start_date] First month: a date or "YYYY-MM" / "YYYY-MM-DD" text. Default: the first month with data.
 * @param [end_date] Last month: a date or "YYYY-MM" / "YYYY-MM-DD" text. Default: the last month with data.
 * @param [headers] 0 no headers, 1 column headers (default), 2 a series identifier line above the column headers.
 * @param [forecast] 1 finals and forecasts (default), 0 finals only, 2 forecasts only.
 * @param [order] 0 oldest month first (default), 1 newest month first.
 * @param invocation Streaming invocation (set by Excel).
 */
export function values(
  code: unknown,
  currency: unknown,
  unit: unknown,
  start_date: unknown,
  end_date: unknown,
  headers: number,
  forecast: number,
  order: number,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>,
): void {
  const args = { code, currency, unit, start_date, end_date, headers, forecast, order };
  runCell(invocation, (engine, host) => valuesJob(engine, args, host));
}

/**
 * One monthly value of a PCD series: the final value for the month, else its forecast. Without a date: the latest final value.
 * @customfunction VALUE
 * @helpurl https://localhost:3000/help.html#value
 * @param code Assessment code as text in quotes, e.g. "68520-8-1" (three groups of digits).
 * @param [date] The month: a date or "YYYY-MM" / "YYYY-MM-DD" text (any day means that month). Default: the latest final month.
 * @param [currency] Currency short name (any case, e.g. "EUR") or ID. Must be one the series offers. Default: the series' default currency.
 * @param [unit] Unit short name (any case, e.g. "MWh") or ID. Must be one the series offers. Default: the series' default unit.
 * @param invocation Streaming invocation (set by Excel).
 */
export function value(
  code: unknown,
  date: unknown,
  currency: unknown,
  unit: unknown,
  invocation: CustomFunctions.StreamingInvocation<unknown>,
): void {
  runCell(invocation, (engine) => valueJob(engine, { code, date, currency, unit }));
}

/**
 * Series Info of a PCD series: one field, or without a field a two-column table of every field.
 * @customfunction INFO
 * @helpurl https://localhost:3000/help.html#info
 * @param code Assessment code as text in quotes, e.g. "68520-8-1".
 * @param [field] Field name, e.g. "assessment", "coverage", "default_currency", "available_units", "last_available_final", "updated_at", "has_forecast" (any case; spaces or underscores). Default: every field.
 * @param invocation Streaming invocation (set by Excel).
 */
export function info(
  code: unknown,
  field: unknown,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>,
): void {
  runCell(invocation, (engine, host) => infoJob(engine, { code, field }, host));
}

/**
 * Data requests left this month: without arguments a table Product, Dataset, Remaining, Total; with a dataset its remaining requests.
 * @customfunction LIMITS
 * @helpurl https://localhost:3000/help.html#limits
 * @param [dataset] Dataset name as in the coverage field, e.g. "Germany" or "Polymers". Default: every subscribed dataset.
 * @param [product] "energy", "commodity" or "industry" (also "energy_price", "Energy Price", ...). Needed when a country is in both energy and industry economics.
 * @param invocation Streaming invocation (set by Excel).
 */
export function limits(
  dataset: unknown,
  product: unknown,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>,
): void {
  runCell(invocation, (engine) => limitsJob(engine, { dataset, product }));
}

/**
 * Finds PCD series in the catalog (costs no data request): Code, Assessment, Coverage, Default currency, Default unit, best match first.
 * @customfunction SEARCH
 * @helpurl https://localhost:3000/help.html#search
 * @param text Words to look for in commodity, assessment, location or coverage, e.g. "natural gas germany".
 * @param [product] "energy", "commodity" or "industry" (also "energy_price", "Energy Price", ...). Default: every product.
 * @param [max_rows] Most matches to return, 1 to 500. Default: 20.
 * @param invocation Streaming invocation (set by Excel).
 */
export function search(
  text: unknown,
  product: unknown,
  max_rows: number,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>,
): void {
  runCell(invocation, (engine) => searchJob(engine, { text, product, max_rows }));
}
