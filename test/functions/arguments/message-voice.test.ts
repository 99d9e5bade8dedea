// Walks the functions' argument errors (every parser over the inputs that change its
// wording) through the checkable rules of docs/messages.md.
import { parseAmount } from "../../../src/functions/arguments/amount";
import { parseCode } from "../../../src/functions/arguments/code";
import { parseFrequency } from "../../../src/functions/arguments/frequency";
import { parseCurrencyOrUnit } from "../../../src/functions/arguments/currency-unit";
import { parseDataset } from "../../../src/functions/arguments/dataset";
import { checkMonthRange, parseMonthArgument } from "../../../src/functions/arguments/dates";
import { findField, parseFieldName } from "../../../src/functions/arguments/field";
import {
  parseForecast,
  parseHeaders,
  parseMaxRows,
  parseOrder,
} from "../../../src/functions/arguments/options";
import { parseProduct } from "../../../src/functions/arguments/product";
import { parseSearchText } from "../../../src/functions/arguments/search-text";
import { voiceProblems } from "../../support/message-voice";

const LONG = "x".repeat(500);
const RANGE = [["a", "b"]];
/** Values of every type a cell can pass, and the shapes each parser treats differently. */
const ODD_VALUES: unknown[] = [
  true,
  false,
  RANGE,
  2.5,
  -4,
  0,
  68511,
  37623,
  3_000_000,
  "abc",
  LONG,
  "2024/01",
];

function messageOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const calls: Array<[string, (value: unknown) => unknown]> = [
  ["code", (value) => parseCode(value)],
  ["from_code", (value) => parseCode(value, "from_code")],
  ["amount", (value) => parseAmount(value)],
  ["frequency", (value) => parseFrequency(value)],
  ["from_date", (value) => parseMonthArgument(value, "from_date")],
  ["currency", (value) => parseCurrencyOrUnit(value, "currency")],
  ["unit", (value) => parseCurrencyOrUnit(value, "unit")],
  ["dataset", (value) => parseDataset(value)],
  ["start_date", (value) => parseMonthArgument(value, "start_date")],
  ["end_date", (value) => parseMonthArgument(value, "end_date")],
  ["date", (value) => parseMonthArgument(value, "date")],
  ["field", (value) => parseFieldName(value)],
  ["headers", (value) => parseHeaders(value)],
  ["forecast", (value) => parseForecast(value)],
  ["order", (value) => parseOrder(value)],
  ["max_rows", (value) => parseMaxRows(value)],
  ["product", (value) => parseProduct(value)],
  ["text", (value) => parseSearchText(value)],
];

const corpus: Array<[string, string]> = [
  ...calls.flatMap(([argument, call]) =>
    [null, "", ...ODD_VALUES].flatMap((value): Array<[string, string]> => {
      const message = messageOf(() => call(value));
      return message === null ? [] : [[`${argument} <- ${JSON.stringify(value)?.slice(0, 30)}`, message]];
    }),
  ),
  ["month range", messageOf(() => checkMonthRange("2024-05", "2024-01")) ?? ""],
  ["unknown field", messageOf(() => findField("price", ["area", "assessment", "code"])) ?? ""],
  [
    "unknown field, long list",
    messageOf(() =>
      findField(
        LONG,
        Array.from({ length: 60 }, (_, i) => `extra_field_${i}`),
      ),
    ) ?? "",
  ],
];

test("the corpus holds a message for every argument", () => {
  expect(corpus.length).toBeGreaterThan(100);
  const covered = new Set(corpus.map(([name]) => name.split(" <- ")[0]));
  for (const [argument] of calls) expect(covered).toContain(argument);
});

test.each(corpus)("%s", (_name, message) => {
  expect(voiceProblems(message)).toEqual([]);
});
