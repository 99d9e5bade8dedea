import { CliArgumentError, parseCliArgs } from "../../src/emulator/cli-args";

test("defaults of the command line: port 3001, admin off", () => {
  const options = parseCliArgs([]);
  expect([options.port, options.admin, options.help]).toEqual([3001, false, false]);
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
  [["--now", "tomorrow"], /--now expects an ISO date-time/],
  [["--unknown"], /Unknown option '--unknown'/],
])("%j is rejected naming the flag", (argv, pattern) => {
  expect(() => parseCliArgs(argv)).toThrow(CliArgumentError);
  expect(() => parseCliArgs(argv)).toThrow(pattern);
});
