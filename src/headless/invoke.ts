// Calls the real custom functions of functions.ts the way Excel does: every declared
// parameter present (omitted ones as null) and the streaming invocation last.
import * as pcd from "../functions/functions";
import type { FormulaArgument, FunctionName } from "./formula";
import type { RecordingInvocation } from "./invocation";

type Invocation = CustomFunctions.StreamingInvocation<unknown>;

interface FunctionEntry {
  parameters: readonly string[];
  call(args: FormulaArgument[], invocation: Invocation): void;
}

/* The declared types of functions.ts are what Excel coerces to; the runner passes the
   literal values, and functions.ts validates every argument itself. */
const arg = (args: FormulaArgument[], index: number): never => (args[index] ?? null) as never;

const FUNCTIONS: Record<FunctionName, FunctionEntry> = {
  VALUES: {
    parameters: [
      "code",
      "currency",
      "unit",
      "start_date",
      "end_date",
      "headers",
      "forecast",
      "order",
      "frequency",
    ],
    call: (a, inv) =>
      pcd.values(
        arg(a, 0),
        arg(a, 1),
        arg(a, 2),
        arg(a, 3),
        arg(a, 4),
        arg(a, 5),
        arg(a, 6),
        arg(a, 7),
        arg(a, 8),
        inv,
      ),
  },
  VALUE: {
    parameters: ["code", "date", "currency", "unit"],
    call: (a, inv) => pcd.value(arg(a, 0), arg(a, 1), arg(a, 2), arg(a, 3), inv),
  },
  INFO: { parameters: ["code", "field"], call: (a, inv) => pcd.info(arg(a, 0), arg(a, 1), inv) },
  LIMITS: { parameters: ["dataset", "product"], call: (a, inv) => pcd.limits(arg(a, 0), arg(a, 1), inv) },
  SEARCH: {
    parameters: ["text", "product", "max_rows"],
    call: (a, inv) => pcd.search(arg(a, 0), arg(a, 1), arg(a, 2), inv),
  },
  ESCALATE: {
    parameters: ["amount", "code", "from_date", "to_date", "currency", "unit"],
    call: (a, inv) => pcd.escalate(arg(a, 0), arg(a, 1), arg(a, 2), arg(a, 3), arg(a, 4), arg(a, 5), inv),
  },
  CHANGE: {
    parameters: ["code", "from_date", "to_date", "currency", "unit"],
    call: (a, inv) => pcd.change(arg(a, 0), arg(a, 1), arg(a, 2), arg(a, 3), arg(a, 4), inv),
  },
  AVERAGE: {
    parameters: ["code", "start_date", "end_date", "currency", "unit", "forecast"],
    call: (a, inv) => pcd.average(arg(a, 0), arg(a, 1), arg(a, 2), arg(a, 3), arg(a, 4), arg(a, 5), inv),
  },
  RELOCATE: {
    parameters: ["amount", "from_code", "to_code", "date"],
    call: (a, inv) => pcd.relocate(arg(a, 0), arg(a, 1), arg(a, 2), arg(a, 3), inv),
  },
  SERIES: {
    parameters: ["code", "currency", "unit", "history"],
    call: (a, inv) => pcd.series(arg(a, 0), arg(a, 1), arg(a, 2), arg(a, 3), inv),
  },
};

/** The declared parameters of a function, in order (as functions.json lists them). */
export function parametersOf(name: FunctionName): readonly string[] {
  return FUNCTIONS[name].parameters;
}

/** Excel refuses a formula with too many arguments before calling the function; so does this. */
export function arityError(name: FunctionName, args: readonly FormulaArgument[]): string | undefined {
  const { parameters } = FUNCTIONS[name];
  if (args.length <= parameters.length) return undefined;
  return `PCD.${name} takes at most ${parameters.length} arguments (${parameters.join(", ")}); got ${args.length}.`;
}

export function invokeFunction(
  name: FunctionName,
  args: FormulaArgument[],
  invocation: RecordingInvocation,
): void {
  FUNCTIONS[name].call(args, invocation as unknown as Invocation);
}
