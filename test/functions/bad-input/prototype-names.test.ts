// Names of Object's own properties in every argument of every function. Tables indexed by
// user text are Maps or own-property lookups, so "__proto__", "constructor", "toString"
// and "hasOwnProperty" are unknown names like any other: each cell is a #VALUE! naming
// the argument (a code argument gets the usual code-format error) and nothing is sent to
// the service, not even a free call (the real functions and engine, emulator on 127.0.0.1).
import type { Engine } from "../../../src/core/engine-api";
import {
  average,
  change,
  escalate,
  info,
  limits,
  relocate,
  search,
  series,
  value,
  values,
} from "../../../src/functions/functions";
import { installCustomFunctionsShim } from "../../../src/headless/custom-functions-shim";
import type { FunctionName } from "../../../src/headless/formula";
import { RecordingInvocation } from "../../../src/headless/invocation";
import { toCellOutput } from "../../../src/headless/cell-output";
import { setEngine } from "../../../src/host/shared-engine";
import { FaultLab } from "../../resilience/support/fault-lab";

const START = "2026-11-10T18:00:00Z";
const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty"] as const;
/** Stand-in for a real energy code, replaced once the emulator's catalog is read. */
const ENERGY = "<energy series>";

/** Stand-in for a real location-factor code. */
const FACTOR = "<location factor>";

type Call = (args: readonly unknown[], invocation: RecordingInvocation) => void;
const at = (args: readonly unknown[], index: number): never => (args[index] ?? null) as never;
const FUNCTIONS: Record<
  FunctionName,
  { parameters: readonly string[]; base: readonly unknown[]; call: Call }
> = {
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
    base: [ENERGY],
    call: (a, inv) =>
      values(
        at(a, 0),
        at(a, 1),
        at(a, 2),
        at(a, 3),
        at(a, 4),
        at(a, 5),
        at(a, 6),
        at(a, 7),
        at(a, 8),
        inv as never,
      ),
  },
  VALUE: {
    parameters: ["code", "date", "currency", "unit"],
    base: [ENERGY],
    call: (a, inv) => value(at(a, 0), at(a, 1), at(a, 2), at(a, 3), inv as never),
  },
  INFO: {
    parameters: ["code", "field"],
    base: [ENERGY],
    call: (a, inv) => info(at(a, 0), at(a, 1), inv as never),
  },
  LIMITS: {
    parameters: ["dataset", "product"],
    base: ["Germany", "energy"],
    call: (a, inv) => limits(at(a, 0), at(a, 1), inv as never),
  },
  SEARCH: {
    parameters: ["text", "product", "max_rows"],
    base: ["gas"],
    call: (a, inv) => search(at(a, 0), at(a, 1), at(a, 2), inv as never),
  },
  ESCALATE: {
    parameters: ["amount", "code", "from_date", "to_date", "currency", "unit"],
    base: [100, ENERGY, "2020-01"],
    call: (a, inv) => escalate(at(a, 0), at(a, 1), at(a, 2), at(a, 3), at(a, 4), at(a, 5), inv as never),
  },
  CHANGE: {
    parameters: ["code", "from_date", "to_date", "currency", "unit"],
    base: [ENERGY, "2020-01"],
    call: (a, inv) => change(at(a, 0), at(a, 1), at(a, 2), at(a, 3), at(a, 4), inv as never),
  },
  AVERAGE: {
    parameters: ["code", "start_date", "end_date", "currency", "unit", "forecast"],
    base: [ENERGY, "2024-01", "2024-12"],
    call: (a, inv) => average(at(a, 0), at(a, 1), at(a, 2), at(a, 3), at(a, 4), at(a, 5), inv as never),
  },
  RELOCATE: {
    parameters: ["amount", "from_code", "to_code", "date"],
    base: [100, FACTOR, FACTOR],
    call: (a, inv) => relocate(at(a, 0), at(a, 1), at(a, 2), at(a, 3), inv as never),
  },
  SERIES: {
    parameters: ["code", "currency", "unit", "history"],
    base: [ENERGY],
    call: (a, inv) => series(at(a, 0), at(a, 1), at(a, 2), at(a, 3), inv as never),
  },
};

interface Case {
  fn: FunctionName;
  argument: string;
  name: string;
  args: unknown[];
}

const cases: Case[] = (Object.keys(FUNCTIONS) as FunctionName[]).flatMap((fn) =>
  FUNCTIONS[fn].parameters.flatMap((argument, index) =>
    NAMES.map((name) => {
      const args = [...FUNCTIONS[fn].base];
      args[index] = name;
      return { fn, argument, name, args };
    }),
  ),
);

let lab: FaultLab;
let engine: Engine;
let energyCode = "";
let factorCode = "";

beforeAll(async () => {
  installCustomFunctionsShim();
  lab = await FaultLab.start(START);
  engine = await lab.signedInEngine();
  const energy = await engine.catalog("energy_price");
  await engine.catalog("commodity_price");
  const industry = await engine.catalog("industry_economics");
  factorCode = industry.find((info) => info.dataType === "location_factor")?.code ?? "";
  await engine.limits();
  setEngine(engine);
  energyCode = energy[0]?.code ?? "";
});

afterAll(async () => {
  setEngine(undefined);
  await lab?.close();
});

function requestsSent(): number {
  const { http } = engine.stats();
  return Object.values(http).reduce((total, count) => total + count, 0);
}

test("every argument of every function meets every name", () => {
  expect(cases).toHaveLength((9 + 4 + 2 + 2 + 3 + 6 + 5 + 6 + 4 + 4) * NAMES.length);
});

test.each(cases)("PCD.$fn $argument = $name", async ({ fn, argument, args }) => {
  const exchangesBefore = lab.exchanges.length;
  const requestsBefore = requestsSent();
  const invocation = new RecordingInvocation();
  FUNCTIONS[fn].call(
    args.map((arg) => (arg === ENERGY ? energyCode : arg === FACTOR ? factorCode : arg)),
    invocation,
  );
  await invocation.settled();
  await engine.idle();
  invocation.cancel();
  const output = toCellOutput(invocation.latest);

  // Nothing reached the service, not even a free call.
  expect(lab.exchanges.length).toBe(exchangesBefore);
  expect(requestsSent()).toBe(requestsBefore);
  if (fn === "SEARCH" && argument === "text") {
    // Search text is free text, not a table key: matches (fuzzy "constructor" finds
    // "construction") or the plain "no match", read from the cached catalog.
    if ("error" in output) expect(output.error.message).toMatch(/^No series match/);
    else expect(JSON.stringify(output.value)).toMatch(/^\[\["Code",/);
    return;
  }
  if (!("error" in output)) throw new Error(`no error, got ${JSON.stringify(output.value).slice(0, 80)}`);
  expect(output.error.type).toBe("#VALUE!");
  if (argument.endsWith("code")) {
    expect(output.error.message).toMatch(
      new RegExp(`^The ${argument} ".*" is not an assessment code: a code is three groups of digits`),
    );
  } else {
    expect(output.error.message).toMatch(new RegExp(`^(The )?(search )?${argument}\\b`, "i"));
  }
});
