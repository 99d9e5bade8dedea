// The bad-input corpus (RELIABILITY.md): arguments a user (or a hostile workbook) can put into
// the PCD functions. Each row: the function, its arguments as Excel passes them
// (null for omitted), the error type and what the message must say. Rows are generated
// per argument class so that every function meets every class that applies to it.
import type { FunctionName } from "../../../src/headless/formula";

export type { FunctionName };

/** An Excel error value, as it would reach a function that accepts any value. */
export class ExcelErrorValue {
  constructor(readonly code: string) {}
  toString(): string {
    return this.code;
  }
}

export interface BadInputCase {
  name: string;
  fn: FunctionName;
  args: unknown[];
  type: "#VALUE!" | "#N/A";
  message: RegExp;
}

/**
 * Stand-ins for real codes, replaced when a case runs (the catalog is the emulator's, read
 * after the test file is collected): an energy series in MWh that offers several units, a
 * cost index and two location factors on different bases.
 */
export const SERIES = {
  energy: "<energy series>",
  costIndex: "<cost index>",
  locationFactor: "<location factor>",
  /** A location factor relative to another base than locationFactor's. */
  otherBaseFactor: "<location factor on another base>",
} as const;

const LONG = "x".repeat(10_000);
/** Fuzzy matching once scaled with a word's length: 100,000 characters ended in an internal error. */
const HUGE_WORD = "polyethylene".repeat(8_334).slice(0, 100_000);
const RANGE = [
  ["68520-8-1", "91201-1-5"],
  ["43125-8-1", "912-5-2"],
];
const ROW = [[1, 2, 3]];

/** Values where a code belongs, with what the message must say. */
function codeCases(): Array<[string, unknown, "#VALUE!" | "#N/A", RegExp]> {
  const notACode = /^The code ".*" is not an assessment code: a code is three groups of digits/;
  return [
    [
      "arithmetic result (68520-8-1 without quotes)",
      68511,
      "#VALUE!",
      /arrived as the number 68511: .*quotes/,
    ],
    ["negative arithmetic result", -4, "#VALUE!", /arrived as the number -4: Excel computed a code/],
    ["a date Excel made of 1-2-3", 37623, "#VALUE!", /the date 2003-01-02/],
    ["a fraction", 2.5, "#VALUE!", /arrived as the number 2\.5/],
    ["zero", 0, "#VALUE!", /arrived as the number 0/],
    ["TRUE", true, "#VALUE!", /code arrived as TRUE/],
    ["FALSE", false, "#VALUE!", /code arrived as FALSE/],
    ["a range", RANGE, "#VALUE!", /code arrived as a range/],
    ["a one-row array", ROW, "#VALUE!", /code arrived as a range/],
    [
      "an Excel error value",
      new ExcelErrorValue("#N/A"),
      "#VALUE!",
      /^The code arrived as .+: give an assessment code as text/,
    ],
    ["omitted", null, "#VALUE!", /^The code is missing/],
    ["empty text", "", "#VALUE!", /^The code is missing/],
    ["blanks only", "   ", "#VALUE!", /^The code is missing/],
    ["two groups", "68520-8", "#VALUE!", notACode],
    ["four groups", "68520-8-1-2", "#VALUE!", notACode],
    ["letters", "abc", "#VALUE!", notACode],
    ["letters in a group", "68520-8a-1", "#VALUE!", notACode],
    ["spaces for hyphens", "68520 8 1", "#VALUE!", notACode],
    ["underscores", "68520_8_1", "#VALUE!", notACode],
    ["empty first group", "-8-1", "#VALUE!", notACode],
    ["empty middle group", "68520--1", "#VALUE!", notACode],
    ["trailing hyphen", "68520-8-1-", "#VALUE!", notACode],
    ["options in the code", "68520-8-1&c=3", "#VALUE!", notACode],
    ["a list of codes", "68520-8-1,91201-1-5", "#VALUE!", notACode],
    ["path traversal", "../../68520-8-1", "#VALUE!", notACode],
    ["very long text", LONG, "#VALUE!", /^The code "x{10,}…" is not an assessment code/],
    ["formula injection =", '=HYPERLINK("http://evil.example","x")', "#VALUE!", notACode],
    ["formula injection +", "+68520-8-1", "#VALUE!", notACode],
    ["formula injection @", "@SUM(A1:A9)", "#VALUE!", notACode],
    ["formula injection -", "-2+3+cmd|' /C calc'!A0", "#VALUE!", notACode],
    ["markup", "<script>alert(1)</script>", "#VALUE!", notACode],
    ["unknown code", "99999-9-99", "#N/A", /^Unknown code '99999-9-99'/],
    ["unknown code with leading zeros", "0000-0-0", "#N/A", /^Unknown code '0000-0-0'/],
    [
      "unknown very long code",
      `${"1".repeat(400)}-1-1`,
      "#N/A",
      /^Unknown code '1{20,}…': it is not in your subscription's catalog/,
    ],
  ];
}

/** Values where a currency or unit belongs on a series that offers some. */
function currencyUnitCases(argument: "currency" | "unit"): Array<[string, unknown, RegExp]> {
  // Energy series offer neither USD cent nor mass units.
  const notOffered = argument === "currency" ? "USD cent" : "mt";
  const listed = new RegExp(`is not offered for \\d+-\\d+-\\d+\\. Available: \\w+(, \\w+)+$`, "i");
  const notAnId = new RegExp(`^The ${argument} .* is not an ID: use a short name or ID the series offers`);
  const unknownName = new RegExp(`${argument}.*(not a|unknown|not offered)`, "i");
  return [
    ["one the series does not offer", notOffered, listed],
    ["an unknown short name", "XYZ", unknownName],
    ["a fraction", 2.5, notAnId],
    ["zero", 0, notAnId],
    ["a negative ID", -3, notAnId],
    [
      "an ID not in the table",
      999,
      new RegExp(`^(The )?${argument} (999 is not an ID|'999' is not offered for )`, "i"),
    ],
    ["TRUE", true, new RegExp(`^The ${argument} arrived as TRUE`)],
    ["a range", RANGE, new RegExp(`^The ${argument} arrived as a range`)],
    ["an Excel error value", new ExcelErrorValue("#REF!"), new RegExp(`^The ${argument} arrived as`)],
    ["two names", argument === "currency" ? "EUR,USD" : "MWh,kWh", unknownName],
    ["formula injection", "=EUR", unknownName],
    ["markup", "<b>EUR</b>", unknownName],
    ["very long text", LONG, unknownName],
    // Energy series offer USD and MWh.
    [
      "a near miss",
      argument === "currency" ? "USDD" : "Mwhr",
      new RegExp(
        `is not offered for \\d+-\\d+-\\d+: did you mean ${argument === "currency" ? "USD" : "MWh"}\\? Available:`,
      ),
    ],
    [
      "the other argument's code",
      argument === "currency" ? "MWh" : "EUR",
      argument === "currency"
        ? /^The currency "MWh" looks like a unit: it goes in the unit argument\.$/
        : /^The unit "EUR" looks like a currency: it goes in the currency argument\.$/,
    ],
  ];
}

function year(argument: string, value: number): RegExp {
  return new RegExp(
    `^The ${argument} ${value} looks like a year: write "${value}-01" or DATE\\(${value},1,1\\)`,
  );
}

/** Values where a date belongs. */
function dateCases(argument: string): Array<[string, unknown, RegExp]> {
  const notADate = new RegExp(
    `^The ${argument} .* is not a date: use a date \\(e\\.g\\. DATE\\(2024,1,1\\)\\)`,
  );
  return [
    ["slashes", "2024/01", notADate],
    ["month 13", "2024-13", notADate],
    ["month 00", "2024-00", notADate],
    ["30 February", "2024-02-30", notADate],
    ["29 February of a common year", "2023-02-29", notADate],
    ["a year only", "2024", year(argument, 2024)],
    ["a year as a number", 2025, year(argument, 2025)],
    [
      "a currency",
      "CHF",
      new RegExp(`^The ${argument} "CHF" looks like a currency: it goes in the currency argument\\.`),
    ],
    [
      "a unit",
      "MWh",
      new RegExp(`^The ${argument} "MWh" looks like a unit: it goes in the unit argument\\.`),
    ],
    ["a month name", "January 2024", notADate],
    ["serial 0", 0, notADate],
    ["a negative serial", -5, notADate],
    ["beyond 9999-12-31", 3e6, notADate],
    ["TRUE", true, notADate],
    ["a range", RANGE, new RegExp(`^The ${argument} .*(range|not a date)`)],
    ["formula injection", "=TODAY()", notADate],
    ["very long text", LONG, notADate],
  ];
}

/** Values where headers / forecast / order belong. */
function optionCases(
  argument: "headers" | "forecast" | "order" | "history",
): Array<[string, unknown, RegExp]> {
  const must = new RegExp(`^The ${argument} argument must be 0 `);
  return [
    ["3", 3, must],
    ["-1", -1, must],
    ["a fraction", 1.5, must],
    ["text", "all", must],
    ["a range", RANGE, must],
    ["a huge number", 1e300, must],
  ];
}

export function buildCorpus(): BadInputCase[] {
  const cases: BadInputCase[] = [];
  const { energy, costIndex, locationFactor } = SERIES;
  for (const [name, code, type, message] of codeCases()) {
    cases.push({ name: `VALUES code: ${name}`, fn: "VALUES", args: [code], type, message });
    cases.push({ name: `VALUE code: ${name}`, fn: "VALUE", args: [code], type, message });
    cases.push({ name: `INFO code: ${name}`, fn: "INFO", args: [code, "assessment"], type, message });
    cases.push({ name: `SERIES code: ${name}`, fn: "SERIES", args: [code], type, message });
  }
  for (const argument of ["currency", "unit"] as const) {
    for (const [name, input, message] of currencyUnitCases(argument)) {
      const valuesArgs = argument === "currency" ? [energy, input] : [energy, null, input];
      const valueArgs = argument === "currency" ? [energy, null, input] : [energy, null, null, input];
      cases.push({
        name: `VALUES ${argument}: ${name}`,
        fn: "VALUES",
        args: valuesArgs,
        type: "#VALUE!",
        message,
      });
      cases.push({
        name: `VALUE ${argument}: ${name}`,
        fn: "VALUE",
        args: valueArgs,
        type: "#VALUE!",
        message,
      });
      // PCD.SERIES takes currency and unit in PCD.VALUES's places.
      cases.push({
        name: `SERIES ${argument}: ${name}`,
        fn: "SERIES",
        args: valuesArgs,
        type: "#VALUE!",
        message,
      });
    }
    for (const [kind, info] of [
      ["cost index", costIndex],
      ["location factor", locationFactor],
    ] as const) {
      const input = argument === "currency" ? "EUR" : "MWh";
      const message = new RegExp(`${argument} does not apply to ${kind}`, "i");
      const valuesArgs = argument === "currency" ? [info, input] : [info, null, input];
      cases.push({
        name: `VALUES ${argument} on a ${kind}`,
        fn: "VALUES",
        args: valuesArgs,
        type: "#VALUE!",
        message,
      });
      cases.push({
        name: `SERIES ${argument} on a ${kind}`,
        fn: "SERIES",
        args: valuesArgs,
        type: "#VALUE!",
        message,
      });
    }
  }
  for (const argument of ["start_date", "end_date"] as const) {
    for (const [name, input, message] of dateCases(argument)) {
      const args =
        argument === "start_date" ? [energy, null, null, input] : [energy, null, null, null, input];
      cases.push({ name: `VALUES ${argument}: ${name}`, fn: "VALUES", args, type: "#VALUE!", message });
    }
  }
  for (const [name, input, message] of dateCases("date")) {
    cases.push({
      name: `VALUE date: ${name}`,
      fn: "VALUE",
      args: [energy, input],
      type: "#VALUE!",
      message,
    });
  }
  cases.push(
    {
      name: "VALUES start after end",
      fn: "VALUES",
      args: [energy, null, null, "2024-05", "2024-01"],
      type: "#VALUE!",
      message: /^The start_date 2024-05 is after the end_date 2024-01/,
    },
    {
      name: "VALUES start after end as serials",
      fn: "VALUES",
      args: [energy, null, null, 45444, 45292],
      type: "#VALUE!",
      message: /^The start_date 2024-06 is after the end_date 2024-01/,
    },
  );
  const optionIndex = { headers: 5, forecast: 6, order: 7 } as const;
  for (const argument of ["headers", "forecast", "order"] as const) {
    for (const [name, input, message] of optionCases(argument)) {
      const args: unknown[] = [energy, null, null, null, null, null, null, null];
      args[optionIndex[argument]] = input;
      cases.push({ name: `VALUES ${argument}: ${name}`, fn: "VALUES", args, type: "#VALUE!", message });
    }
  }
  const field = /^The field ".*" is not a Series Info field; fields: area, assessment/;
  for (const [name, input, message] of [
    ["an unknown field", "price", field],
    ["formula injection", "=assessment", field],
    ["markup", "<img src=x onerror=alert(1)>", field],
    ["very long text", LONG, field],
    ["a number", 5, /^The field .*(not a Series Info field|arrived as)/],
    ["TRUE", true, /^The field arrived as TRUE/],
    ["a range", RANGE, /^The field arrived as a range/],
  ] as const) {
    cases.push({
      name: `INFO field: ${name}`,
      fn: "INFO",
      args: [energy, input],
      type: "#VALUE!",
      message,
    });
  }
  const product = /^The product .* is not a PCD product: use "energy", "commodity" or "industry"/;
  for (const [name, args, message] of [
    ["an unknown dataset", ["Narnia"], /^The dataset "Narnia" is not subscribed; datasets: /],
    [
      "a dataset in two products",
      ["Germany"],
      /^The dataset "Germany" exists in Energy Price and Industry Economics/,
    ],
    ["formula injection dataset", ["=Germany"], /^The dataset "=Germany" is not subscribed/],
    ["markup dataset", ["<b>Germany</b>"], /^The dataset "<b>Germany<\/b>" is not subscribed/],
    ["very long dataset", [LONG], /^The dataset "x{10,}…" is not subscribed/],
    ["a number as dataset", [5], /^(The dataset .*not subscribed|The dataset arrived as)/],
    ["TRUE as dataset", [true], /^The dataset arrived as TRUE/],
    ["a range as dataset", [RANGE], /^The dataset arrived as a range/],
    ["an unknown product", [null, "oil"], product],
    ["a number as product", [null, 3], /^The product .*(not a PCD product|arrived as)/],
    ["a range as product", [null, RANGE], /^The product (arrived as )?a range/],
    ["a product injection", ["Germany", "=energy"], product],
  ] as const) {
    cases.push({ name: `LIMITS ${name}`, fn: "LIMITS", args: [...args], type: "#VALUE!", message });
  }
  const maxRows = /^The max_rows argument must be a whole number from 1 to 500 \(default 20\); got /;
  for (const [name, args, message] of [
    ["empty text", [""], /^The search text is empty: give words to search for/],
    ["omitted text", [null], /^The search text is empty: give words to search for/],
    ["blank text", ["   "], /^The search text is empty/],
    ["TRUE as text", [true], /^The search text arrived as TRUE/],
    ["a range as text", [RANGE], /^The search text arrived as a range/],
    ["max_rows 0", ["gas", null, 0], maxRows],
    ["max_rows 501", ["gas", null, 501], maxRows],
    ["max_rows a fraction", ["gas", null, 2.5], maxRows],
    ["max_rows negative", ["gas", null, -1], maxRows],
    ["max_rows text", ["gas", null, "many"], maxRows],
    ["max_rows a range", ["gas", null, RANGE], maxRows],
    ["an unknown product", ["gas", "oil"], product],
    ["a product injection", ["gas", "@energy"], product],
    [
      "text of 201 characters",
      ["x".repeat(201)],
      /^The search text is 201 characters long: search with at most 200 /,
    ],
    [
      "one word of 100,000 characters",
      [HUGE_WORD],
      /^The search text is 100,000 characters long: search with at most 200 /,
    ],
  ] as const) {
    cases.push({ name: `SEARCH ${name}`, fn: "SEARCH", args: [...args], type: "#VALUE!", message });
  }
  for (const [name, input, message] of optionCases("history")) {
    cases.push({
      name: `SERIES history: ${name}`,
      fn: "SERIES",
      args: [energy, null, null, input],
      type: "#VALUE!",
      message,
    });
  }
  cases.push(...toolkitCases());
  return cases;
}

/** The toolkit functions' own arguments: amount, from/to dates, frequency, the codes' kind. */
function toolkitCases(): BadInputCase[] {
  const cases: BadInputCase[] = [];
  const energy = SERIES.energy;
  const factor = SERIES.locationFactor;
  const amount = /^The amount must be a number, e\.g\. 1250000; got /;
  const missingAmount = /^The amount is required/;
  const notADate = (argument: string): RegExp => new RegExp(`^The ${argument} `);
  const frequency =
    /^The frequency must be "M" \(monthly, the default\), "Q" \(quarterly\) or "Y" \(annual\)/;
  const rows: Array<[string, FunctionName, unknown[], RegExp]> = [
    ["ESCALATE amount as text", "ESCALATE", ["a lot", energy, "2020-01"], amount],
    ["ESCALATE amount TRUE", "ESCALATE", [true, energy, "2020-01"], amount],
    ["ESCALATE amount a range", "ESCALATE", [RANGE, energy, "2020-01"], amount],
    ["ESCALATE amount omitted", "ESCALATE", [null, energy, "2020-01"], missingAmount],
    ["ESCALATE from_date omitted", "ESCALATE", [100, energy, null], /^The from_date is required/],
    ["ESCALATE from_date not a date", "ESCALATE", [100, energy, "soon"], notADate("from_date")],
    ["ESCALATE to_date not a date", "ESCALATE", [100, energy, "2020-01", "2020-13"], notADate("to_date")],
    [
      "ESCALATE code without quotes",
      "ESCALATE",
      [100, 68511, "2020-01"],
      /^The code arrived as the number 68511/,
    ],
    ["CHANGE from_date omitted", "CHANGE", [energy, null], /^The from_date is required/],
    ["CHANGE code missing", "CHANGE", [null, "2020-01"], /^The code is missing/],
    ["AVERAGE start_date omitted", "AVERAGE", [energy, null, "2024-12"], /^The start_date is required/],
    ["AVERAGE end_date omitted", "AVERAGE", [energy, "2024-01", null], /^The end_date is required/],
    [
      "AVERAGE start after end",
      "AVERAGE",
      [energy, "2024-12", "2024-01"],
      /^The start_date 2024-12 is after the end_date 2024-01/,
    ],
    [
      "AVERAGE forecast 2",
      "AVERAGE",
      [energy, "2024-01", "2024-12", null, null, 2],
      /^The forecast must be 1 .* or 0 \(finals only\); got 2/,
    ],
    ["RELOCATE amount as text", "RELOCATE", ["ten", factor, factor], amount],
    [
      "RELOCATE from_code without quotes",
      "RELOCATE",
      [100, 68511, factor],
      /^The from_code arrived as the number 68511/,
    ],
    [
      "RELOCATE to_code not a code",
      "RELOCATE",
      [100, factor, "abc"],
      /^The to_code "abc" is not an assessment code/,
    ],
    [
      "RELOCATE a price series as from_code",
      "RELOCATE",
      [100, energy, factor],
      /^The from_code .* is not a location factor/,
    ],
    [
      "RELOCATE a cost index as to_code",
      "RELOCATE",
      [100, factor, SERIES.costIndex],
      /^The to_code .* is not a location factor/,
    ],
    [
      "RELOCATE two factors on different bases",
      "RELOCATE",
      [100, factor, SERIES.otherBaseFactor],
      /^The from_code \S+ is relative to .+, the to_code \S+ to .+: their ratio means nothing\. Factors of .+ on one base: \S+ and \S+ \(vs .+\)\.$/,
    ],
    [
      "RELOCATE date a year",
      "RELOCATE",
      [100, factor, factor, 2025],
      /^The date 2025 looks like a year: write "2025-01"/,
    ],
    [
      "RELOCATE date a currency",
      "RELOCATE",
      [100, factor, factor, "EUR"],
      /^The date "EUR" looks like a currency: this function takes no currency\./,
    ],
    ["VALUES frequency W", "VALUES", [energy, null, null, null, null, null, null, null, "W"], frequency],
    ["VALUES frequency a number", "VALUES", [energy, null, null, null, null, null, null, null, 4], frequency],
    ["VALUES frequency TRUE", "VALUES", [energy, null, null, null, null, null, null, null, true], frequency],
  ];
  for (const [name, fn, args, message] of rows) cases.push({ name, fn, args, type: "#VALUE!", message });
  return cases;
}
