import { DEFAULT_OPTIONS, resolveOptions, type EmulatorOptions } from "../../src/emulator/options";

test("in-process defaults follow the lead's decisions", () => {
  expect(resolveOptions()).toMatchObject({
    port: 0,
    host: "127.0.0.1",
    seed: 1,
    tokenTtlSeconds: 7200,
    history: true,
    allowance: 500,
    user: "analyst@pcd.example",
    password: "pcd-emulator",
    admin: true,
    forecastMonths: 6,
    corsOrigins: ["https://localhost:3000"],
    cors: true,
    errorFormat: "json",
    duplicateDates: false,
  });
});

/** What each shape sets: the real service's (the default) and the service description's letter. */
const SHAPES = {
  real: {
    shape: "real",
    boolStrings: true,
    naMarker: "-",
    extraFields: true,
    order: "newest",
    historyEndsBeforeValues: true,
    historyForecasts: false,
  },
  spec: {
    shape: "spec",
    boolStrings: false,
    naMarker: "n/a",
    extraFields: false,
    order: "newest",
    historyEndsBeforeValues: false,
    historyForecasts: true,
  },
} as const;

test.each([
  ["no shape", {}, SHAPES.real],
  ["shape real", { shape: "real" }, SHAPES.real],
  ["shape spec", { shape: "spec" }, SHAPES.spec],
  ["shape undefined", { shape: undefined }, SHAPES.real],
] as const)("%s: the shape's variant defaults", (_case, partial, expected) => {
  expect(resolveOptions(partial)).toMatchObject(expected);
});

test("the shape changes only its variants; every other default stays", () => {
  const { real, spec } = { real: resolveOptions(), spec: resolveOptions({ shape: "spec" }) };
  const differing = (Object.keys(real) as (keyof EmulatorOptions)[]).filter(
    (key) => JSON.stringify(real[key]) !== JSON.stringify(spec[key]),
  );
  expect(differing.sort()).toEqual(
    ["shape", "boolStrings", "naMarker", "extraFields", "historyEndsBeforeValues", "historyForecasts"].sort(),
  );
});

test.each([
  [
    { shape: "spec", boolStrings: true },
    { boolStrings: true, naMarker: "n/a", extraFields: false },
  ],
  [
    { shape: "spec", naMarker: "-" },
    { naMarker: "-", boolStrings: false },
  ],
  [
    { shape: "spec", extraFields: true },
    { extraFields: true, historyEndsBeforeValues: false },
  ],
  [
    { shape: "spec", historyEndsBeforeValues: true },
    { historyEndsBeforeValues: true, historyForecasts: true },
  ],
  [
    { shape: "spec", historyForecasts: false },
    { historyForecasts: false, historyEndsBeforeValues: false },
  ],
  [
    { shape: "spec", order: "shuffled" },
    { order: "shuffled", boolStrings: false },
  ],
  [{ boolStrings: false }, { boolStrings: false, naMarker: "-", extraFields: true }],
  [
    { shape: "real", naMarker: "n/a" },
    { naMarker: "n/a", boolStrings: true },
  ],
  [{ extraFields: false }, { extraFields: false, historyEndsBeforeValues: true }],
  [{ historyEndsBeforeValues: false }, { historyEndsBeforeValues: false, historyForecasts: false }],
  [{ historyForecasts: true }, { historyForecasts: true, historyEndsBeforeValues: true }],
] as const)("%j: the explicit option wins over the shape, the rest keeps it", (partial, expected) => {
  expect(resolveOptions(partial)).toMatchObject(expected);
});

test("undefined values keep the defaults", () => {
  expect(resolveOptions({ seed: undefined }).seed).toBe(DEFAULT_OPTIONS.seed);
});

test.each([
  [{ port: 70000 }, /port must be an integer from 0 to 65535/],
  [{ allowance: -1 }, /allowance/],
  [{ forecastMonths: 1.5 }, /forecastMonths/],
  [{ now: "not a time" }, /now must be an ISO date-time/],
  [{ password: "" }, /must not be empty/],
  [{ shape: "letter" as EmulatorOptions["shape"] }, /shape must be real or spec, got 'letter'/],
])("%j is rejected", (partial, pattern) => {
  expect(() => resolveOptions(partial)).toThrow(pattern);
});
