// The formula options contract: every choice the task pane offers is one the function
// accepts, and the pane leaves out exactly the argument the function defaults to.
import {
  DEFAULT_FORECAST,
  DEFAULT_FREQUENCY,
  DEFAULT_HEADERS,
  DEFAULT_ORDER,
  FORECAST_CHOICES,
  FREQUENCY_CHOICES,
  FREQUENCY_NAMES,
  HEADERS_CHOICES,
  ORDER_CHOICES,
  defaultFirst,
  type OptionChoice,
} from "../../src/contracts/formula-options";
import { parseFrequency } from "../../src/functions/arguments/frequency";
import { parseForecast, parseHeaders, parseOrder } from "../../src/functions/arguments/options";
import { valuesFormula } from "../../src/workbook/formula-text";
import { argumentSpecs } from "../../src/workbook/argument-specs";

type Option = "headers" | "forecast" | "order";

const NUMERIC: Array<[Option, readonly OptionChoice<number>[], number, (input: unknown) => number]> = [
  ["headers", HEADERS_CHOICES, DEFAULT_HEADERS, parseHeaders],
  ["forecast", FORECAST_CHOICES, DEFAULT_FORECAST, parseForecast],
  ["order", ORDER_CHOICES, DEFAULT_ORDER, parseOrder],
];

describe.each(NUMERIC)("%s", (option, choices, fallback, parse) => {
  test("an omitted argument is the default", () => {
    expect(parse(null)).toBe(fallback);
  });

  test.each(choices.map((choice) => choice.value))("the pane's choice %s parses to itself", (value) => {
    expect(parse(value)).toBe(value);
    const formula = valuesFormula("1-1-1", { [option]: value });
    // The default is left out; any other value is written as the last argument.
    if (value === fallback) expect(formula).toBe('=PCD.VALUES("1-1-1")');
    else expect(formula.endsWith(`,${value})`)).toBe(true);
  });

  test("the pane offers the default first", () => {
    expect(defaultFirst(choices, fallback)[0]?.value).toBe(fallback);
  });
});

test.each(FREQUENCY_CHOICES.map((choice) => choice.value))(
  "frequency %s parses from its letter and name",
  (value) => {
    expect(parseFrequency(value)).toBe(value);
    expect(parseFrequency(value.toLowerCase())).toBe(value);
    const names = [...FREQUENCY_NAMES].filter(([, frequency]) => frequency === value).map(([name]) => name);
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) expect(parseFrequency(name.toUpperCase())).toBe(value);
  },
);

test("an omitted frequency is monthly", () => {
  expect(parseFrequency(null)).toBe(DEFAULT_FREQUENCY);
});

test.each<[string, readonly OptionChoice<string | number>[]]>([
  ["headers", HEADERS_CHOICES],
  ["forecast", FORECAST_CHOICES],
  ["order", ORDER_CHOICES],
  ["frequency", FREQUENCY_CHOICES],
])("the Edit cell hint of PCD.VALUES' %s names every choice", (name, choices) => {
  const hint = argumentSpecs("VALUES")?.find((spec) => spec.name === name)?.hint ?? "";
  for (const choice of choices)
    expect(hint).toContain(`${String(choice.value)} ${choice.label.toLowerCase()}`);
});
