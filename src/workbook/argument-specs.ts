// How each argument of a PCD function shows in the "Edit cell" form: its label, what the
// field takes and a hint. The parameters themselves, their order and which take numbers
// come from src/functions/functions.ts through the generated pcd-signatures.generated.ts;
// this file only names them for people. The switches' hints come from the formula options
// contract the functions parse with (src/contracts/formula-options.ts).
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
import { pcdParameters, type ParameterSignature } from "./pcd-signatures.generated";

/** text: written in quotes; number: written as typed; month: a date as "YYYY-MM" text. */
export type ArgumentKind = "text" | "number" | "month";

export interface ArgumentSpec {
  /** The parameter's name in functions.ts. */
  name: string;
  label: string;
  kind: ArgumentKind;
  hint?: string;
}

interface ArgumentLook {
  label: string;
  /** Unless given: a number for a parameter Excel converts to a number, a month for a date, else text. */
  kind?: ArgumentKind;
  hint?: string;
}

/** "1 column headers, 0 no headers, 2 series line and column headers": the default first. */
function choicesHint<T>(choices: readonly OptionChoice<T>[], fallback: T): string {
  return defaultFirst(choices, fallback)
    .map((choice) => `${String(choice.value)} ${choice.label.toLowerCase()}`)
    .join(", ");
}

const SERIES_DEFAULT = "empty: the series default";

/** By parameter name: the same name means the same thing in every function. */
export const ARGUMENT_LOOKS: Readonly<Record<string, ArgumentLook>> = {
  code: { label: "Series code" },
  currency: { label: "Currency", hint: SERIES_DEFAULT },
  unit: { label: "Unit", hint: SERIES_DEFAULT },
  start_date: { label: "From" },
  end_date: { label: "To" },
  date: { label: "Month" },
  from_date: { label: "From month" },
  to_date: { label: "To month" },
  headers: { label: "Headers", hint: choicesHint(HEADERS_CHOICES, DEFAULT_HEADERS) },
  forecast: { label: "Forecasts", hint: choicesHint(FORECAST_CHOICES, DEFAULT_FORECAST) },
  order: { label: "Order", hint: choicesHint(ORDER_CHOICES, DEFAULT_ORDER) },
  frequency: { label: "Frequency", hint: choicesHint(FREQUENCY_CHOICES, DEFAULT_FREQUENCY) },
  field: { label: "Field", hint: "empty: every field" },
  dataset: { label: "Dataset" },
  product: { label: "Product", hint: "energy, commodity or industry" },
  text: { label: "Search text" },
  max_rows: { label: "Most rows", hint: "1 to 500" },
  // Excel passes the amount as typed (so a reference or text is explained), but it is a number.
  amount: { label: "Amount", kind: "number" },
  from_code: { label: "From location code" },
  to_code: { label: "To location code" },
  history: { label: "History", hint: "0 latest 13 months, 1 every month" },
};

/** Where one function's argument means something else than the name's usual meaning. */
export const FUNCTION_ARGUMENT_LOOKS: Readonly<
  Record<string, Readonly<Record<string, Partial<ArgumentLook>>>>
> = {
  AVERAGE: { forecast: { hint: "1 forecasts fill months without a final, 0 finals only" } },
};

function kindOf(parameter: ParameterSignature): ArgumentKind {
  if (parameter.type === "number") return "number";
  return parameter.name === "date" || parameter.name.endsWith("_date") ? "month" : "text";
}

/** The form's fields for a function, in the order Excel passes its arguments; undefined for no PCD function. */
export function argumentSpecs(functionName: string): ArgumentSpec[] | undefined {
  return pcdParameters(functionName)?.map((parameter): ArgumentSpec => {
    const look = {
      ...ARGUMENT_LOOKS[parameter.name],
      ...FUNCTION_ARGUMENT_LOOKS[functionName]?.[parameter.name],
    };
    const kind = look.kind ?? kindOf(parameter);
    const hint = look.hint ?? (kind === "month" ? "YYYY-MM" : undefined);
    return { name: parameter.name, label: look.label ?? parameter.name, kind, hint };
  });
}
