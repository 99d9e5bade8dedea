// The numeric switches of PCD.VALUES (headers, forecast, order), PCD.SEARCH (max_rows) and
// PCD.SERIES (history).
// Each accepts only the documented values; anything else names the allowed ones.
import { argumentError, describeValue, isOmitted } from "./argument-error";

export type HeadersOption = 0 | 1 | 2;
export type ForecastOption = 0 | 1 | 2;
export type OrderOption = 0 | 1;
export type HistoryOption = 0 | 1;

interface Choice<T extends number> {
  value: T;
  meaning: string;
}

const HEADERS: readonly Choice<HeadersOption>[] = [
  { value: 0, meaning: "no headers" },
  { value: 1, meaning: "column headers, the default" },
  { value: 2, meaning: "series line and column headers" },
];
const FORECAST: readonly Choice<ForecastOption>[] = [
  { value: 0, meaning: "finals only" },
  { value: 1, meaning: "finals and forecasts, the default" },
  { value: 2, meaning: "forecasts only" },
];
const ORDER: readonly Choice<OrderOption>[] = [
  { value: 0, meaning: "oldest first, the default" },
  { value: 1, meaning: "newest first" },
];
const HISTORY: readonly Choice<HistoryOption>[] = [
  { value: 0, meaning: "the latest 13 months and the forecasts, the default" },
  { value: 1, meaning: "every month since the series began" },
];

export const parseHeaders = (input: unknown): HeadersOption => parseChoice(input, "headers", HEADERS, 1);
export const parseForecast = (input: unknown): ForecastOption => parseChoice(input, "forecast", FORECAST, 1);
export const parseOrder = (input: unknown): OrderOption => parseChoice(input, "order", ORDER, 0);
export const parseHistory = (input: unknown): HistoryOption => parseChoice(input, "history", HISTORY, 0);

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
  choices: readonly Choice<T>[],
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
