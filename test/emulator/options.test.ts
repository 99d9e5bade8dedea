import { DEFAULT_OPTIONS, resolveOptions } from "../../src/emulator/options";

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
    order: "newest",
    naMarker: "n/a",
    errorFormat: "json",
  });
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
])("%j is rejected", (partial, pattern) => {
  expect(() => resolveOptions(partial)).toThrow(pattern);
});
