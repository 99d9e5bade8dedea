import { UsageError, clockStartingAt, formulasOfFile, parseCliArgs } from "../../src/headless/cli-args";

const NO_ENV = {};

test.each([
  [["=PCD.LIMITS()"], { json: false, formulas: ["=PCD.LIMITS()"] }],
  [
    [
      "--json",
      "--passes",
      "3",
      "--refresh",
      "--sandbox",
      "--timeout=20",
      "=PCD.LIMITS()",
      '=PCD.INFO("1-2-3")',
    ],
    {
      json: true,
      passes: 3,
      refresh: true,
      sandbox: true,
      timeoutMs: 20_000,
      formulas: ["=PCD.LIMITS()", '=PCD.INFO("1-2-3")'],
    },
  ],
  [
    [
      "--",
      "--base-url",
      "http://127.0.0.1:9",
      "--auth-url=http://127.0.0.1:8",
      "--username",
      "u",
      "--password",
      "p",
      "--cache",
      "c.json",
      "--file",
      "f.txt",
    ],
    {
      json: false,
      formulas: [],
      baseUrl: "http://127.0.0.1:9",
      authUrl: "http://127.0.0.1:8",
      username: "u",
      password: "p",
      cacheFile: "c.json",
      file: "f.txt",
    },
  ],
  // A repeated flag: the last one counts.
  [["--passes", "2", "--passes=3", "=PCD.LIMITS()"], { json: false, passes: 3, formulas: ["=PCD.LIMITS()"] }],
])("%j", (argv, expected) => {
  expect(parseCliArgs(argv, NO_ENV)).toEqual(expected);
});

test("environment fallbacks fill what the flags leave out", () => {
  const env = {
    PCD_BASE_URL: "http://127.0.0.1:1",
    PCD_AUTH_URL: "http://127.0.0.1:2",
    PCD_USERNAME: "env-user",
    PCD_PASSWORD: "env-pass",
  };
  expect(parseCliArgs(["--username", "flag-user", "=PCD.LIMITS()"], env)).toMatchObject({
    baseUrl: "http://127.0.0.1:1",
    authUrl: "http://127.0.0.1:2",
    username: "flag-user",
    password: "env-pass",
  });
});

test.each([
  {
    case: "PCD_API_KEY alone",
    env: { PCD_API_KEY: "pcdk_secret" },
    signsInAs: { username: "api-key", password: "pcdk_secret" },
  },
  {
    case: "PCD_API_KEY over PCD_USERNAME and PCD_PASSWORD",
    env: { PCD_API_KEY: "pcdk_secret", PCD_USERNAME: "env-user", PCD_PASSWORD: "env-pass" },
    signsInAs: { username: "api-key", password: "pcdk_secret" },
  },
  {
    case: "an empty PCD_API_KEY is not set",
    env: { PCD_API_KEY: "", PCD_USERNAME: "env-user", PCD_PASSWORD: "env-pass" },
    signsInAs: { username: "env-user", password: "env-pass" },
  },
])("$case: the runner signs in as $signsInAs.username", ({ env, signsInAs }) => {
  expect(parseCliArgs(["=PCD.LIMITS()"], env)).toMatchObject(signsInAs);
});

test.each([
  ["--password", "p"],
  ["--username", "u"],
])("PCD_API_KEY with %s is a usage error that names the conflict and not the key", (...flag) => {
  const run = () => parseCliArgs([...flag, "=PCD.LIMITS()"], { PCD_API_KEY: "pcdk_secret" });
  expect(run).toThrow(UsageError);
  expect(run).toThrow("PCD_API_KEY is set: it signs in by itself, so give no --username or --password");
  expect(run).not.toThrow(/pcdk_secret/);
});

test.each([
  [[], "No formulas: give --file F or at least one formula."],
  [["--file", "f.txt", "=PCD.LIMITS()"], "Give either --file or formulas, not both."],
  [["--passes", "0", "=PCD.LIMITS()"], '--passes must be a whole number of at least 1; got "0".'],
  [["--timeout", "soon", "=PCD.LIMITS()"], '--timeout must be a whole number from 1 to 86400; got "soon".'],
  // 2147484 s is more than a Node timer holds (it would fire at once); 86400 s is the most.
  [
    ["--timeout", "2147484", "=PCD.LIMITS()"],
    '--timeout must be a whole number from 1 to 86400; got "2147484".',
  ],
  [["--timeout", "86401", "=PCD.LIMITS()"], '--timeout must be a whole number from 1 to 86400; got "86401".'],
  [["--timeout", "0", "=PCD.LIMITS()"], '--timeout must be a whole number from 1 to 86400; got "0".'],
  [["--timeout=-5", "=PCD.LIMITS()"], '--timeout must be a whole number from 1 to 86400; got "-5".'],
  [["--timeout", "1.5", "=PCD.LIMITS()"], '--timeout must be a whole number from 1 to 86400; got "1.5".'],
  [["--cache"], "--cache needs a value."],
  [["--cache=", "=PCD.LIMITS()"], "--cache needs a value."],
  [["--passes=", "=PCD.LIMITS()"], "--passes needs a value."],
  // A flag where its value should be is not taken as the value.
  [
    ["--cache", "--json", "=PCD.LIMITS()"],
    '--cache needs a value (one that starts with "-" is given as --cache=VALUE).',
  ],
  [
    ["--timeout", "-5", "=PCD.LIMITS()"],
    '--timeout needs a value (one that starts with "-" is given as --timeout=VALUE).',
  ],
  [["--verbose", "=PCD.LIMITS()"], "Unknown option --verbose."],
  [["-x", "=PCD.LIMITS()"], "Unknown option -x."],
  [["--json=yes", "=PCD.LIMITS()"], "--json takes no value."],
  [["--refresh=1", "=PCD.LIMITS()"], "--refresh takes no value."],
])("%j is a usage error", (argv, message) => {
  expect(() => parseCliArgs(argv, NO_ENV)).toThrow(new UsageError(message));
});

test.each([[["--help"]], [["-h"]], [["--passes", "x", "--help", "=PCD.LIMITS()"]], [["--", "--help"]]])(
  "%j asks for the usage",
  (argv) => {
    expect(parseCliArgs(argv, NO_ENV)).toMatchObject({ help: true });
  },
);

test.each([
  ["2026-11-10T15:00:00Z", Date.parse("2026-11-10T15:00:00Z")],
  ["2026-11-10T15:00:00.250Z", Date.parse("2026-11-10T15:00:00.250Z")],
  ["2026-11-10T09:00-06:00", Date.parse("2026-11-10T15:00:00Z")],
])("PCD_NOW=%s starts the run's clock there, and it advances with real time", (start, instant) => {
  let real = 1_000_000;
  const clock = clockStartingAt(start, () => real);
  expect(clock.now()).toBe(instant);
  real += 90_000;
  expect(clock.now()).toBe(instant + 90_000);
});

test("without PCD_NOW the run keeps the real clock (no clock option)", () => {
  expect(parseCliArgs(["=PCD.LIMITS()"], NO_ENV).clock).toBeUndefined();
  expect(parseCliArgs(["=PCD.LIMITS()"], { PCD_NOW: "" }).clock).toBeUndefined();
});

test("PCD_NOW reaches the run's options as a clock", () => {
  const clock = parseCliArgs(["=PCD.LIMITS()"], { PCD_NOW: "2026-11-10T15:00:00Z" }).clock;
  expect(Math.abs((clock?.now() ?? 0) - Date.parse("2026-11-10T15:00:00Z"))).toBeLessThan(60_000);
});

test.each(["2026-11-10", "yesterday", "2026-11-10T15:00:00", "2026-13-40T15:00:00Z"])(
  "PCD_NOW=%s is a usage error naming the form it needs",
  (start) => {
    expect(() => parseCliArgs(["=PCD.LIMITS()"], { PCD_NOW: start })).toThrow(
      new UsageError(
        `PCD_NOW must be an ISO date-time with a zone, e.g. 2026-11-10T15:00:00Z; got "${start}".`,
      ),
    );
  },
);

test("--timeout 86400 (a day) is the longest accepted", () => {
  expect(parseCliArgs(["--timeout", "86400", "=PCD.LIMITS()"], NO_ENV).timeoutMs).toBe(86_400_000);
});

test("a formula file skips blank lines and comments", () => {
  expect(formulasOfFile('# workbook\n=PCD.LIMITS()\r\n\n  # note\n  =PCD.VALUE("1-2-3")  \n')).toEqual([
    "=PCD.LIMITS()",
    '=PCD.VALUE("1-2-3")',
  ]);
});
