// Golden file of the message corpus: every message a PCD function shows, per input class,
// produced by the real functions on the real engine against the emulator (127.0.0.1, port
// 0) and its faults. test/golden/messages.json is the review surface of any change to a
// message: bad arguments per function and argument, unknown codes, wrong currency or unit,
// no data in range, service errors (401, 403, 404, 429, 5xx, no answer, a timeout, a
// malformed answer), quota used up, maintenance, the sandbox, not signed in, no History plan.
// The functions come from the headless runner's list (src/headless/formula.ts), so a new
// function joins the corpus by itself: rewrite the file with
//   UPDATE_GOLDEN=1 npx jest test/functions/messages.golden.test.ts
// Deterministic: the emulator's catalog is seeded; the engine and the service run on the
// fault lab's clock, set per class, which moves only to the engine's own timers (a wait
// before a retry, a timeout) once no call is in flight but held ones, so a late answer is
// one the lab holds until the engine's timeout passes on that clock; the cells are read
// once the engine is idle and no change is still being delivered; the one wall-clock text
// (the cell's own retry time) is masked.
import { createEngine } from "../../src/core/engine";
import type { Engine } from "../../src/core/engine-api";
import { locationFactorBase, sameBase } from "../../src/core/location-factor-base";
import type { SeriesInfo } from "../../src/core/model";
import { MemoryStorage } from "../../src/core/storage";
import { installCustomFunctionsShim } from "../../src/headless/custom-functions-shim";
import { toCellOutput } from "../../src/headless/cell-output";
import { FUNCTION_NAMES, type FormulaArgument, type FunctionName } from "../../src/headless/formula";
import { arityError, invokeFunction, parametersOf } from "../../src/headless/invoke";
import { RecordingInvocation } from "../../src/headless/invocation";
import { setEngine } from "../../src/host/shared-engine";
import { FaultLab, RETRY } from "../resilience/support/fault-lab";
import { buildCorpus, SERIES } from "./bad-input/corpus";
import { expectGolden } from "../support/golden-file";

jest.setTimeout(180_000);

/** A working day outside any downtime (a Tuesday, 12:00 US Central Time). */
const START = "2026-11-10T18:00:00Z";
/** The 15th, 05:30 and 06:30 US Central Time: signed in before its maintenance (06:00 to 22:00), the token still valid in it. */
const BEFORE_MAINTENANCE = "2026-11-15T11:30:00Z";
const MAINTENANCE = "2026-11-15T12:30:00Z";
/** The call timeout of the lab's engines (its messages name it). */
const CALL_TIMEOUT_MS = 1_000;

let lab: FaultLab;
/** Stand-in -> the emulator's code. */
const codes = new Map<string, string>();

beforeAll(async () => {
  installCustomFunctionsShim();
  // "Your time" in messages is the machine's zone and locale: pinned to UTC and en-US here.
  const SystemFormat = Intl.DateTimeFormat;
  jest
    .spyOn(Intl, "DateTimeFormat")
    .mockImplementation(
      (locales, options) => new SystemFormat(locales ?? "en-US", { timeZone: "UTC", ...options }),
    );
  // No rate limit on either side: the corpus's retries go as fast as the lab's clock allows
  // (a 429 comes from the injected fault alone, never from the pace of the calls).
  lab = await FaultLab.start(START, { rateLimitPerSecond: 0 });
  const engine = await signedIn();
  const energy = await engine.catalog("energy_price");
  const industry = await engine.catalog("industry_economics");
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
  // RELOCATE's working call takes two factors on one base; the corpus's refused one, two bases.
  const factors = industry.filter((series) => series.dataType === "location_factor");
  const factor = factors[0];
  const first = factor ? locationFactorBase(factor) : null;
  // Same base: any other location; another base: another location too (the usual mistake).
  const onBase =
    (same: boolean) =>
    (other: SeriesInfo): boolean => {
      const read = locationFactorBase(other);
      return (
        other !== factor &&
        first !== null &&
        read !== null &&
        sameBase(first.base, read.base) === same &&
        !sameBase(first.location, read.location)
      );
    };
  codes.set(SERIES.locationFactor, pick(factor, "location factor"));
  codes.set(OTHER_FACTOR, pick(factors.find(onBase(true)), "second location factor on the same base"));
  codes.set(SERIES.otherBaseFactor, pick(factors.find(onBase(false)), "location factor on another base"));
});

afterAll(async () => {
  jest.restoreAllMocks();
  setEngine(undefined);
  await lab?.close();
});

const OTHER_FACTOR = "<other location factor>";

/** An engine as the add-in builds it, on the lab's fetch, clock and timers. */
function engineAt(sandbox = false): Engine {
  return createEngine(
    {
      fetch: lab.fetch,
      storage: new MemoryStorage(),
      clock: { now: lab.now },
      scheduler: lab.clock,
      log: () => undefined,
    },
    {
      settings: {
        baseUrl: lab.emulator.url,
        authUrl: lab.emulator.url,
        callTimeoutMs: CALL_TIMEOUT_MS,
        historyTimeoutMs: CALL_TIMEOUT_MS,
        ...(sandbox ? { environment: "sandbox" as const } : {}),
      },
      batchWindowMs: 5,
      tuning: { requestsPerSecond: 1_000 },
      retry: RETRY,
    },
  );
}

async function signedIn(sandbox = false): Promise<Engine> {
  const engine = engineAt(sandbox);
  await engine.ready();
  await engine.signIn(lab.emulator.username, lab.emulator.password);
  return engine;
}

/**
 * A call of the function that works on a fault-free service, made from its parameter
 * names (so a new function gets one without this file knowing it): codes of the kind the
 * parameter names, an amount, a period of finals.
 */
function exampleArguments(name: FunctionName): unknown[] {
  const parameters = parametersOf(name);
  return parameters.map((parameter) => {
    if (parameter === "code") return name === "RELOCATE" ? SERIES.locationFactor : SERIES.energy;
    if (parameter === "from_code") return SERIES.locationFactor;
    if (parameter === "to_code") return OTHER_FACTOR;
    if (parameter === "amount") return 1000;
    if (parameter === "from_date" || parameter === "start_date") return "2026-01";
    if (parameter === "to_date" || parameter === "end_date") return "2026-06";
    if (parameter === "text") return "gas";
    return null;
  });
}

/** The arguments with stand-ins replaced by the emulator's codes. */
function resolved(args: readonly unknown[]): FormulaArgument[] {
  return args.map((arg) => (typeof arg === "string" ? (codes.get(arg) ?? arg) : arg)) as FormulaArgument[];
}

/** Texts that depend on the machine or the wall clock, masked. */
function deterministic(message: string): string {
  return message
    .replace(/Will try again at \d\d:\d\d UTC/g, "Will try again at HH:MM UTC")
    .replaceAll(lab.emulator.url, "http://127.0.0.1:PORT")
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT");
}

/**
 * Waits until the engine has no call under way and no cell set a new result over two
 * rounds in a row. The engine delivers changes on a zero-delay timer: each round waits
 * for a timer turn after idle, so a change announced just before is delivered (and the
 * recomputation it starts is under way) before the results are counted.
 */
async function quiet(engine: Engine, invocations: readonly RecordingInvocation[]): Promise<void> {
  const results = (): number => invocations.reduce((sum, invocation) => sum + invocation.resultCount, 0);
  let unchanged = 0;
  for (let round = 0; round < 50; round += 1) {
    const before = results();
    await engine.idle();
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (let tick = 0; tick < 3; tick += 1) await new Promise((resolve) => setImmediate(resolve));
    unchanged = results() === before ? unchanged + 1 : 0;
    if (unchanged === 2) return;
  }
  throw new Error("the cells kept changing: the corpus would not be deterministic");
}

/** Each cell's result once all is quiet, as the corpus records it: "#TYPE! message", or "value". */
async function runCells(
  engine: Engine,
  cells: ReadonlyArray<[string, FunctionName, unknown[]]>,
): Promise<Record<string, string>> {
  setEngine(engine);
  const started = cells.map(([label, name, args]) => {
    const invocation = new RecordingInvocation();
    const tooMany = arityError(name, resolved(args));
    if (tooMany === undefined) invokeFunction(name, resolved(args), invocation);
    return { label, invocation, tooMany };
  });
  for (const { invocation, tooMany } of started) if (tooMany === undefined) await invocation.settled();
  // A cell's message may name what the cache holds ("finals 2007-01 to …" once a History
  // call has landed): the cells are read once every call has ended and every cell has
  // recomputed on the changes, so the corpus does not depend on which answer came first.
  await quiet(
    engine,
    started.map(({ invocation }) => invocation),
  );
  const shown: Record<string, string> = {};
  for (const { label, invocation, tooMany } of started) {
    if (tooMany !== undefined) {
      shown[label] = `#NAME? ${tooMany}`;
      continue;
    }
    const output = toCellOutput(invocation.latest);
    shown[label] =
      "error" in output ? `${output.error.type} ${deterministic(output.error.message)}` : "value";
  }
  for (const { invocation } of started) invocation.cancel();
  await lab.drain();
  return shown;
}

const every = (label: string): Array<[string, FunctionName, unknown[]]> =>
  FUNCTION_NAMES.map((name) => [`PCD.${name} ${label}`, name, exampleArguments(name)]);

/** Each function's example call with the patch applied, where the function has every patched parameter. */
function withArguments(
  patch: Record<string, unknown>,
  label: string,
): Array<[string, FunctionName, unknown[]]> {
  return FUNCTION_NAMES.flatMap((name): Array<[string, FunctionName, unknown[]]> => {
    const parameters = parametersOf(name);
    if (!Object.keys(patch).every((parameter) => parameters.includes(parameter))) return [];
    const args = exampleArguments(name);
    parameters.forEach((parameter, index) => {
      if (parameter in patch) args[index] = patch[parameter];
    });
    return [[`PCD.${name} ${label}`, name, args]];
  });
}

/** Each function's arguments with one replaced (where the function has that parameter). */
function withArgument(
  parameter: (name: string) => boolean,
  value: unknown,
  label: string,
): Array<[string, FunctionName, unknown[]]> {
  return FUNCTION_NAMES.flatMap((name) =>
    parametersOf(name).flatMap((declared, index): Array<[string, FunctionName, unknown[]]> => {
      if (!parameter(declared)) return [];
      const args = exampleArguments(name);
      args[index] = value;
      return [[`PCD.${name} ${declared} ${label}`, name, args]];
    }),
  );
}

interface InputClass {
  name: string;
  cells(): Array<[string, FunctionName, unknown[]]>;
  /** The service's state for the class (faults, plan, clock); reset after it. */
  arm?(): Promise<void>;
  /** When the engine signs in (default START). */
  signInAt?: string;
  /** Where the service's and the engine's clocks move after signing in (default: they stay). */
  at?: string;
  sandbox?: boolean;
  signedOut?: boolean;
}

/** Every answer class of the service that is not data: status codes, no answer, a late or unreadable one. */
const SERVICE_FAULTS: ReadonlyArray<[string, Record<string, unknown>]> = [
  ["HTTP 401", { mode: "status", status: 401 }],
  ["HTTP 403", { mode: "status", status: 403 }],
  ["HTTP 404", { mode: "status", status: 404 }],
  ["HTTP 429", { mode: "status", status: 429 }],
  ["HTTP 500", { mode: "status", status: 500 }],
  ["HTTP 503", { mode: "status", status: 503 }],
  ["no answer (connection dropped)", { mode: "drop" }],
  ["a malformed answer", { mode: "malformed" }],
  // Held by the lab until the engine's timeout passes on the lab's clock, then answered late.
  ["no answer in time", { mode: "held" }],
];

/** The fault on every call of the operations. */
const faultOn =
  (operations: readonly string[], fault: Record<string, unknown>) => async (): Promise<void> => {
    if (fault.mode === "held") {
      lab.hooks.hold = (call) => operations.includes(call.operation);
      return;
    }
    for (const operation of operations) await lab.admin("faults", { operation, rate: 1, ...fault });
  };

type Cell = [string, FunctionName, unknown[]];

const CLASSES: InputClass[] = [
  {
    name: "bad arguments",
    cells: () => [
      ...buildCorpus().map((row): Cell => [
        `PCD.${row.fn} ${row.name.replace(new RegExp(`^${row.fn} `), "")}`,
        row.fn as FunctionName,
        row.args,
      ]),
      ...FUNCTION_NAMES.map((name): Cell => [`PCD.${name} no arguments`, name, []]),
      ...FUNCTION_NAMES.map((name): Cell => [
        `PCD.${name} one argument too many`,
        name,
        [...exampleArguments(name), null],
      ]),
    ],
  },
  {
    name: "unknown code",
    cells: () => withArgument((parameter) => /(^|_)code$/.test(parameter), "1-2-3", "unknown"),
  },
  {
    name: "wrong currency or unit",
    cells: () => [
      ...withArgument((parameter) => parameter === "currency", "XYZ", "not a currency"),
      ...withArgument((parameter) => parameter === "unit", "parsec", "not a unit"),
      ...withArgument((parameter) => parameter === "currency", "USD cent", "not offered by the series"),
      ...withArgument((parameter) => parameter === "unit", "mt", "not offered by the series"),
    ],
  },
  {
    name: "no data in range",
    cells: () => [
      ...withArguments({ start_date: "2035-01", end_date: "2035-06" }, "2035-01 to 2035-06"),
      ...withArguments({ from_date: "2035-01" }, "from 2035-01"),
      ...withArguments({ from_date: "1990-01" }, "from 1990-01"),
      ...withArguments({ to_date: "2035-01" }, "to 2035-01"),
      ...withArguments({ date: "2035-01" }, "at 2035-01"),
    ],
  },
  ...SERVICE_FAULTS.flatMap(([name, fault]): InputClass[] => [
    {
      name: `service error on data calls: ${name}`,
      cells: () => every(`during ${name}`),
      arm: faultOn(["series_values", "series_hist"], fault),
    },
    {
      name: `service error on catalog and limits calls: ${name}`,
      cells: () => every(`during ${name}`),
      arm: faultOn(["series_info", "data_limits"], fault),
    },
  ]),
  {
    name: "quota used up",
    cells: () => every("with the allowance used up"),
    arm: async () => {
      await lab.admin("plan", { allowance: 0 });
    },
  },
  {
    name: "maintenance",
    cells: () => every("in maintenance"),
    signInAt: BEFORE_MAINTENANCE,
    at: MAINTENANCE,
  },
  { name: "sandbox", cells: () => every("in the sandbox"), sandbox: true },
  { name: "not signed in", cells: () => every("not signed in"), signedOut: true },
  {
    name: "no History plan",
    cells: () => [
      ...withArguments({ start_date: "2015-01", end_date: "2015-06" }, "2015-01 to 2015-06"),
      ...withArguments({ from_date: "2015-01" }, "from 2015-01"),
      ...withArguments({ date: "2015-01" }, "at 2015-01"),
      ...withArguments({}, "of the latest months"),
    ],
    arm: async () => {
      await lab.admin("plan", { history: false });
    },
  },
];

test("every message of every function, per input class, matches test/golden/messages.json", async () => {
  const corpus: Record<string, Record<string, string>> = {};
  for (const inputClass of CLASSES) {
    await lab.resetAll();
    await lab.admin("plan", { history: true, allowance: 500 });
    await lab.setClock(inputClass.signInAt ?? START);
    const engine = inputClass.signedOut ? engineAt() : await signedIn(inputClass.sandbox);
    if (inputClass.at !== undefined) await lab.setClock(inputClass.at);
    await inputClass.arm?.();
    const shown = await runCells(engine, inputClass.cells());
    corpus[inputClass.name] = Object.fromEntries(
      Object.entries(shown).sort(([a], [b]) => a.localeCompare(b, "en")),
    );
  }
  await lab.resetAll();
  expectGolden(
    "messages.json",
    `${JSON.stringify({ functions: FUNCTION_NAMES, ...corpus }, null, 2)}\n`,
    "The message corpus",
    "npx jest test/functions/messages.golden.test.ts",
  );
});
