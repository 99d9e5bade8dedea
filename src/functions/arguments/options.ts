// The numeric switches of PCD.VALUES (headers, forecast, order), PCD.SEARCH (max_rows) and
// PCD.SERIES (history).
// Each accepts only the documented values (src/contracts/formula-options.ts); anything
// else names the allowed ones.
import {
  DEFAULT_FORECAST,
  DEFAULT_HEADERS,
  DEFAULT_HISTORY,
  DEFAULT_ORDER,
  FORECAST_CHOICES,
  HEADERS_CHOICES,
  HISTORY_CHOICES,
  ORDER_CHOICES,
  type ForecastOption,
  type HeadersOption,
  type HistoryOption,
  type OptionChoice,
  type OrderOption,
} from "../../contracts/formula-options";
import { argumentError, describeValue, isOmitted } from "./argument-error";

export const parseHeaders = (input: unknown): HeadersOption =>
  parseChoice(input, "headers", HEADERS_CHOICES, DEFAULT_HEADERS);
export const parseForecast = (input: unknown): ForecastOption =>
  parseChoice(input, "forecast", FORECAST_CHOICES, DEFAULT_FORECAST);
export const parseOrder = (input: unknown): OrderOption =>
  parseChoice(input, "order", ORDER_CHOICES, DEFAULT_ORDER);
export const parseHistory = (input: unknown): HistoryOption =>
  parseChoice(input, "history", HISTORY_CHOICES, DEFAULT_HISTORY);

export const DEFAULT_MAX_ROWS = 20;
export const MAX_MAX_ROWS = 500;

export function parseMaxRows(input: unknown): number {
  if (isOmitted(input)) return DEFAULT_MAX_ROWS;
  const number = toNumber(input);
  if (number === undefined || !Number.isInteger(number) || number < 1 || number > MAX_MAX_ROWS) {
    throw argumentError(
      "max_rows",
      `The max_rows argument must be a whole number from 1 to ${MAX_MAX_ROWS} (default ${DEFAULT_MAX_ROWS}); got ${describeValue(input)}.`,
      [`1..${MAX_MAX_ROWS}`],
    );
  }
  return number;
}

function parseChoice<T extends number>(
  input: unknown,
  argument: string,
  choices: readonly OptionChoice<T>[],
  fallback: T,
): T {
  if (isOmitted(input)) return fallback;
  const number = toNumber(input);
  const choice = choices.find((candidate) => candidate.value === number);
  if (choice) return choice.value;
  const list = choices.map((c) => `${c.value} (${c.meaning})`);
  const alternatives = `${list.slice(0, -1).join(", ")} or ${list[list.length - 1] ?? ""}`;
  throw argumentError(
    argument,
    `The ${argument} argument must be ${alternatives}; got ${describeValue(input)}.`,
    choices.map((c) => String(c.value)),
  );
}

/** Excel coerces numeric arguments, but a headless caller or a TRUE/FALSE may still pass other types. */
function toNumber(input: unknown): number | undefined {
  if (typeof input === "number") return input;
  if (typeof input === "boolean") return input ? 1 : 0;
  if (typeof input === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(input)) return Number(input);
  return undefined;
}
