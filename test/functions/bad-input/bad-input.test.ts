// The bad-input corpus against the real functions and the real engine (emulator on
// 127.0.0.1, port 0): every case settles at once with a specific message, the function
// never throws, and no data request is sent (catalog and limits calls are free).
import type { Engine } from "../../../src/core/engine-api";
import { locationFactorBase, sameBase } from "../../../src/core/location-factor-base";
import type { Operation } from "../../../src/core/model";
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
import { FUNCTION_NAMES } from "../../../src/headless/formula";
import { RecordingInvocation } from "../../../src/headless/invocation";
import { toCellOutput } from "../../../src/headless/cell-output";
import { setEngine } from "../../../src/host/shared-engine";
import { FaultLab } from "../../resilience/support/fault-lab";
import { buildCorpus, SERIES, type BadInputCase, type FunctionName } from "./corpus";

const START = "2026-11-10T18:00:00Z";

let lab: FaultLab;
let engine: Engine;
const corpus: BadInputCase[] = buildCorpus();
/** Stand-in -> the emulator's code, filled once the catalog is read. */
const codes = new Map<string, string>();

type Call = (args: unknown[], invocation: RecordingInvocation) => void;
/* Excel passes whatever the cell holds; the functions validate every argument themselves. */
const at = (args: unknown[], index: number): never => (args[index] ?? null) as never;
const FUNCTIONS: Record<FunctionName, Call> = {
  VALUES: (a, inv) =>
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
  VALUE: (a, inv) => value(at(a, 0), at(a, 1), at(a, 2), at(a, 3), inv as never),
  INFO: (a, inv) => info(at(a, 0), at(a, 1), inv as never),
  LIMITS: (a, inv) => limits(at(a, 0), at(a, 1), inv as never),
  SEARCH: (a, inv) => search(at(a, 0), at(a, 1), at(a, 2), inv as never),
  ESCALATE: (a, inv) => escalate(at(a, 0), at(a, 1), at(a, 2), at(a, 3), at(a, 4), at(a, 5), inv as never),
  CHANGE: (a, inv) => change(at(a, 0), at(a, 1), at(a, 2), at(a, 3), at(a, 4), inv as never),
  AVERAGE: (a, inv) => average(at(a, 0), at(a, 1), at(a, 2), at(a, 3), at(a, 4), at(a, 5), inv as never),
  RELOCATE: (a, inv) => relocate(at(a, 0), at(a, 1), at(a, 2), at(a, 3), inv as never),
  SERIES: (a, inv) => series(at(a, 0), at(a, 1), at(a, 2), at(a, 3), inv as never),
};

function dataCalls(http: Record<Operation, number>): number {
  return http.series_values + http.series_hist;
}

beforeAll(async () => {
  installCustomFunctionsShim();
  lab = await FaultLab.start(START);
  engine = await lab.signedInEngine();
  const energy = await engine.catalog("energy_price");
  const industry = await engine.catalog("industry_economics");
  await engine.limits();
  setEngine(engine);
  const pick = (found: { code: string } | undefined, what: string): string => {
    if (!found) throw new Error(`the emulator catalog has no ${what}`);
    return found.code;
  };
  codes.set(
    SERIES.energy,
    pick(
      energy.find((series) => series.availableUnits.length > 1 && series.defaultUnit === "MWh"),
      "energy series in MWh",
    ),
  );
  codes.set(
    SERIES.costIndex,
    pick(
      industry.find((series) => series.dataType === "cost_index"),
      "cost index",
    ),
  );
  const factors = industry.filter((series) => series.dataType === "location_factor");
  const factor = factors[0];
  const first = factor ? locationFactorBase(factor) : null;
  codes.set(SERIES.locationFactor, pick(factor, "location factor"));
  codes.set(
    SERIES.otherBaseFactor,
    pick(
      factors.find((other) => {
        const read = locationFactorBase(other);
        return (
          first !== null &&
          read !== null &&
          !sameBase(first.base, read.base) &&
          !sameBase(first.location, read.location)
        );
      }),
      "location factor of another location on another base",
    ),
  );
  await lab.admin("reset", {});
});

afterAll(async () => {
  setEngine(undefined);
  await lab?.close();
});

test("the corpus has at least 150 cases over all ten functions", () => {
  expect(corpus.length).toBeGreaterThanOrEqual(150);
  expect(new Set(corpus.map((row) => row.fn))).toEqual(new Set(FUNCTION_NAMES));
});

/** Runs one case as Excel would: the first result, the engine idle, no data request sent. */
async function runCase(row: BadInputCase): Promise<{ problem?: string; message?: string }> {
  const before = engine.stats();
  const invocation = new RecordingInvocation();
  try {
    FUNCTIONS[row.fn](
      row.args.map((arg) => (typeof arg === "string" ? (codes.get(arg) ?? arg) : arg)),
      invocation,
    );
  } catch (error) {
    return { problem: `threw ${String(error)}` };
  }
  await invocation.settled();
  await engine.idle();
  invocation.cancel();
  const output = toCellOutput(invocation.latest);
  const after = engine.stats();
  if (dataCalls(after.http) !== dataCalls(before.http) || after.dataRequests !== before.dataRequests) {
    return { problem: "sent a data request" };
  }
  if (!("error" in output)) return { problem: `no error, got ${JSON.stringify(output.value).slice(0, 80)}` };
  if (output.error.type !== row.type) return { problem: `${output.error.type}: ${output.error.message}` };
  return { message: output.error.message };
}

test.each(corpus)("PCD.$fn, $name: $type with a specific message, no data request", async (row) => {
  const { problem, message = "" } = await runCase(row);
  expect(problem).toBeUndefined();
  expect(message).toMatch(row.message);
  // Excel shows at most 255 characters of an error message: the cause must fit.
  expect(message.length).toBeLessThanOrEqual(255);
});

test("the service saw no data call over the whole corpus", async () => {
  const stats = await lab.stats();
  expect(stats.calls.series_values + stats.calls.series_hist).toBe(0);
  expect(Object.values(stats.dataRequests).reduce((total, n) => total + n, 0)).toBe(0);
});
