// The Edit cell form's fields: every parameter the functions declare has a label, every label
// names a parameter, and the kinds and hints follow the declaration (a row per case).
import {
  ARGUMENT_LOOKS,
  FUNCTION_ARGUMENT_LOOKS,
  argumentSpecs,
  type ArgumentSpec,
} from "../../src/workbook/argument-specs";
import { FUNCTION_NAMES, PCD_PARAMETERS } from "../../src/workbook/pcd-signatures.generated";

const declared = new Set<string>(
  Object.values(PCD_PARAMETERS).flatMap((parameters) => parameters.map((p) => p.name)),
);

test.each(FUNCTION_NAMES)("every parameter of PCD.%s has a label of its own", (name) => {
  for (const parameter of PCD_PARAMETERS[name]) expect(ARGUMENT_LOOKS[parameter.name]?.label).toBeTruthy();
  expect(argumentSpecs(name)?.map((spec) => spec.name)).toEqual(PCD_PARAMETERS[name].map((p) => p.name));
});

test("every label names a parameter some function declares", () => {
  const named = [
    ...Object.keys(ARGUMENT_LOOKS),
    ...Object.values(FUNCTION_ARGUMENT_LOOKS).flatMap((looks) => Object.keys(looks)),
  ];
  expect(named.filter((name) => !declared.has(name))).toEqual([]);
  for (const name of Object.keys(FUNCTION_ARGUMENT_LOOKS))
    expect(FUNCTION_NAMES as readonly string[]).toContain(name);
});

test.each<[string, string, Omit<ArgumentSpec, "name">]>([
  ["VALUE", "code", { label: "Series code", kind: "text", hint: undefined }],
  ["VALUE", "date", { label: "Month", kind: "month", hint: "YYYY-MM" }],
  ["CHANGE", "from_date", { label: "From month", kind: "month", hint: "YYYY-MM" }],
  ["VALUES", "currency", { label: "Currency", kind: "text", hint: "empty: the series default" }],
  ["ESCALATE", "amount", { label: "Amount", kind: "number", hint: undefined }],
  ["SEARCH", "max_rows", { label: "Most rows", kind: "number", hint: "1 to 500" }],
  [
    "AVERAGE",
    "forecast",
    { label: "Forecasts", kind: "number", hint: "1 forecasts fill months without a final, 0 finals only" },
  ],
])("PCD.%s %s", (fn, name, look) => {
  expect(argumentSpecs(fn)?.find((spec) => spec.name === name)).toEqual({ name, ...look });
});

test.each(["NOSUCH", "constructor", "__proto__", "values"])("%s is no PCD function", (name) => {
  expect(argumentSpecs(name)).toBeUndefined();
});
