// The PCD custom functions as Excel sees them. custom-functions-metadata-plugin reads
// this file's JSDoc to generate functions.json and appends CustomFunctions.associate(...)
// calls, so every function here must stay a top-level named function with its JSDoc, and
// the file must have no side effects beyond imports.
//
// Parameter types are what Excel coerces to: `unknown` becomes Excel's "any" (so a code
// typed without quotes arrives as a number and we can explain the mistake) and `number`
// makes Excel convert text such as "1". Omitted optional arguments arrive as null whatever
// the declared type, so every argument goes through a parser that accepts unknown input.
//
// All of them are streaming: a cell keeps its invocation and is set again when its data
// changes (after a refresh, a sign-in or a catalog update), and only then.
import { runCell } from "./cell-runner";
import {
  averageJob,
  changeJob,
  escalateJob,
  infoJob,
  limitsJob,
  relocateJob,
  searchJob,
  seriesCardJob,
} from "./jobs-on-first-use";
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
 * @param [frequency] "M" monthly rows (default), "Q" quarterly or "Y" annual averages of complete periods (also "monthly", "quarterly", "annual", any case).
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
  frequency: unknown,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>,
): void {
  const args = { code, currency, unit, start_date, end_date, headers, forecast, order, frequency };
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
  runCell(invocation, (engine, host) => limitsJob(engine, { dataset, product }, host));
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
  runCell(invocation, (engine, host) => searchJob(engine, { text, product, max_rows }, host));
}

/**
 * Escalates an amount from one month to another with a price or cost index series: amount × V(to) / V(from), where V is the month's final value, else its forecast.
 * @customfunction ESCALATE
 * @helpurl https://localhost:3000/help.html#escalate
 * @param amount The cost or price in the from month, e.g. 1250000.
 * @param code Assessment code of the index or price series, as text in quotes, e.g. "68520-8-1".
 * @param from_date The month the amount is priced in: a date or "YYYY-MM" / "YYYY-MM-DD" text.
 * @param [to_date] The month to escalate to (a forecast month gives a forecast). Default: the series' latest final month.
 * @param [currency] Currency short name or ID the series is read in. Default: the series' default currency.
 * @param [unit] Unit short name or ID the series is read in. Default: the series' default unit.
 * @param invocation Streaming invocation (set by Excel).
 */
export function escalate(
  amount: unknown,
  code: unknown,
  from_date: unknown,
  to_date: unknown,
  currency: unknown,
  unit: unknown,
  invocation: CustomFunctions.StreamingInvocation<number>,
): void {
  runCell(invocation, (engine, host) =>
    escalateJob(engine, { amount, code, from_date, to_date, currency, unit }, host),
  );
}

/**
 * Relative change of a series between two months: V(to) / V(from) − 1, where V is the month's final value, else its forecast.
 * @customfunction CHANGE
 * @helpurl https://localhost:3000/help.html#change
 * @param code Assessment code as text in quotes, e.g. "68520-8-1".
 * @param from_date The earlier month: a date or "YYYY-MM" / "YYYY-MM-DD" text.
 * @param [to_date] The later month. Default: the series' latest final month.
 * @param [currency] Currency short name or ID. Default: the series' default currency.
 * @param [unit] Unit short name or ID. Default: the series' default unit.
 * @param invocation Streaming invocation (set by Excel).
 */
export function change(
  code: unknown,
  from_date: unknown,
  to_date: unknown,
  currency: unknown,
  unit: unknown,
  invocation: CustomFunctions.StreamingInvocation<number>,
): void {
  runCell(invocation, (engine, host) =>
    changeJob(engine, { code, from_date, to_date, currency, unit }, host),
  );
}

/**
 * Average of a series over the months from start to end inclusive, e.g. an annual average for a budget.
 * @customfunction AVERAGE
 * @helpurl https://localhost:3000/help.html#average
 * @param code Assessment code as text in quotes, e.g. "68520-8-1".
 * @param start_date First month: a date or "YYYY-MM" / "YYYY-MM-DD" text.
 * @param end_date Last month: a date or "YYYY-MM" / "YYYY-MM-DD" text.
 * @param [currency] Currency short name or ID. Default: the series' default currency.
 * @param [unit] Unit short name or ID. Default: the series' default unit.
 * @param [forecast] 1 forecasts stand in for months without a final (default), 0 finals only.
 * @param invocation Streaming invocation (set by Excel).
 */
export function average(
  code: unknown,
  start_date: unknown,
  end_date: unknown,
  currency: unknown,
  unit: unknown,
  forecast: number,
  invocation: CustomFunctions.StreamingInvocation<number>,
): void {
  runCell(invocation, (engine, host) =>
    averageJob(engine, { code, start_date, end_date, currency, unit, forecast }, host),
  );
}

/**
 * Moves an estimate from one location to another with two location-factor series: amount × LF_to(date) / LF_from(date).
 * @customfunction RELOCATE
 * @helpurl https://localhost:3000/help.html#relocate
 * @param amount The estimate at the from location, e.g. 85000000.
 * @param from_code Location-factor code of the location the estimate is for, as text in quotes.
 * @param to_code Location-factor code of the location to move it to, as text in quotes.
 * @param [date] The month of the factors: a date or "YYYY-MM" text. Default: the latest final month both series have.
 * @param invocation Streaming invocation (set by Excel).
 */
export function relocate(
  amount: unknown,
  from_code: unknown,
  to_code: unknown,
  date: unknown,
  invocation: CustomFunctions.StreamingInvocation<number>,
): void {
  runCell(invocation, (engine, host) => relocateJob(engine, { amount, from_code, to_code, date }, host));
}

/**
 * A PCD series as a card where Excel shows data types (ExcelApi 1.16): the latest final value with its unit, the months it spans and its values; =A1.Latest reads a property. Older Excel: the Series Info table.
 * @customfunction SERIES
 * @helpurl https://localhost:3000/help.html#series
 * @param code Assessment code as text in quotes, e.g. "68520-8-1".
 * @param [currency] Currency short name or ID. Must be one the series offers. Default: the series' default currency.
 * @param [unit] Unit short name or ID. Must be one the series offers. Default: the series' default unit.
 * @param [history] 0 the latest 13 months and the forecasts (default, one data request), 1 every month since the series began (one more request).
 * @param invocation Streaming invocation (set by Excel).
 */
export function series(
  code: unknown,
  currency: unknown,
  unit: unknown,
  history: number,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>,
): void {
  runCell(invocation, (engine, host) => seriesCardJob(engine, { code, currency, unit, history }, host));
}
