import { CliArgumentError, parseCliArgs } from "../../src/emulator/cli-args";
import { resolveOptions } from "../../src/emulator/options";

test("defaults of the command line: port 3001, admin off, no shape given (the real one applies)", () => {
  const options = parseCliArgs([]);
  expect([options.port, options.admin, options.help, options.shape]).toEqual([3001, false, false, undefined]);
  const { help: _help, ...given } = options;
  expect(resolveOptions(given)).toMatchObject({ shape: "real", boolStrings: true, naMarker: "-" });
});

test.each([
  [["--port", "0"], { port: 0 }],
  [["--host", "0.0.0.0"], { host: "0.0.0.0" }],
  [["--seed", "42"], { seed: 42 }],
  [["--now", "2026-11-10T18:00:00Z"], { now: "2026-11-10T18:00:00Z" }],
  [["--token-ttl", "60"], { tokenTtlSeconds: 60 }],
  [["--latency", "200", "--latency-per-code", "5"], { latencyMs: 200, latencyPerCodeMs: 5 }],
  [["--history", "off"], { history: false }],
  [["--allowance", "300"], { allowance: 300 }],
  [["--datasets", "Germany,Polymers"], { subscribedDatasets: ["Germany", "Polymers"] }],
  [["--user", "me@x.example", "--password", "secret"], { user: "me@x.example", password: "secret" }],
  [["--admin"], { admin: true }],
  [["--forecast-months", "9"], { forecastMonths: 9 }],
  [["--release-hour", "18"], { releaseHour: 18 }],
  [["--downtime", "off"], { downtime: false }],
  [["--rate-limit", "0"], { rateLimitPerSecond: 0 }],
  [
    ["--bool-strings", "--extra-fields", "--duplicate-dates"],
    { boolStrings: true, extraFields: true, duplicateDates: true },
  ],
  [["--na-marker", "-"], { naMarker: "-" }],
  [["--order", "oldest"], { order: "oldest" }],
  [["--history-ends-before-values"], { historyEndsBeforeValues: true }],
  [["--history-forecasts"], { historyForecasts: true }],
  [["--shape", "real"], { shape: "real" }],
  [["--shape", "spec"], { shape: "spec" }],
  [
    ["--no-bool-strings", "--no-extra-fields", "--no-history-ends-before-values", "--no-history-forecasts"],
    { boolStrings: false, extraFields: false, historyEndsBeforeValues: false, historyForecasts: false },
  ],
  [["--error-format", "text"], { errorFormat: "text" }],
  [
    ["--cors-origin", "https://a.example", "--cors-origin", "https://b.example"],
    { corsOrigins: ["https://a.example", "https://b.example"] },
  ],
])("%j", (argv, expected) => {
  expect(parseCliArgs(argv)).toMatchObject(expected);
});

test.each([
  [["--port", "x"], /--port expects a non-negative integer, got 'x'/],
  [["--history", "maybe"], /--history expects on or off/],
  [["--order", "random"], /--order expects newest\|oldest\|shuffled/],
  [["--shape", "letter"], /--shape expects real\|spec, got 'letter'/],
  [["--shape"], /--shape/],
  [["--now", "tomorrow"], /--now expects an ISO date-time/],
  [["--unknown"], /Unknown option '--unknown'/],
])("%j is rejected naming the flag", (argv, pattern) => {
  expect(() => parseCliArgs(argv)).toThrow(CliArgumentError);
  expect(() => parseCliArgs(argv)).toThrow(pattern);
});

test.each([
  [["--shape", "spec"], { shape: "spec", boolStrings: false, naMarker: "n/a", historyForecasts: true }],
  [["--shape", "real"], { shape: "real", boolStrings: true, naMarker: "-", historyForecasts: false }],
  [
    ["--shape", "spec", "--bool-strings", "--na-marker", "-"],
    { shape: "spec", boolStrings: true, naMarker: "-", extraFields: false, historyEndsBeforeValues: false },
  ],
  [
    ["--shape", "spec", "--history-ends-before-values"],
    { historyEndsBeforeValues: true, historyForecasts: true, boolStrings: false },
  ],
  [["--no-bool-strings"], { shape: "real", boolStrings: false, naMarker: "-", extraFields: true }],
  [["--no-history-ends-before-values"], { historyEndsBeforeValues: false, historyForecasts: false }],
  [["--history-forecasts"], { historyForecasts: true, historyEndsBeforeValues: true }],
])("%j: explicit flags win over the shape's defaults", (argv, expected) => {
  const { help: _help, ...given } = parseCliArgs(argv);
  expect(resolveOptions(given)).toMatchObject(expected);
});
