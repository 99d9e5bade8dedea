import { CallLog, describeCall, tightestSpan, type LoggedCall } from "../../bench/call-log";

describe("describeCall", () => {
  test.each([
    ["http://127.0.0.1:1/access_token/v1", "access_token", "", []],
    ["http://127.0.0.1:1/energy_price/v1/export/series", "series_info", "energy_price", []],
    ["http://127.0.0.1:1/energy_price/v1/sandbox/export/series", "series_info", "energy_price", []],
    [
      "http://127.0.0.1:1/commodity_price/v1/export/series/1-2-3&c=3,0456-7-8&u=7&c=1",
      "series_values",
      "commodity_price",
      ["1-2-3", "0456-7-8"],
    ],
    [
      "http://127.0.0.1:1/industry_economics/v1/export/series_hist/1-2-3%26c%3D3",
      "series_hist",
      "industry_economics",
      ["1-2-3"],
    ],
    ["http://127.0.0.1:1/energy_price/v1/data_limits", "data_limits", "energy_price", []],
    ["http://127.0.0.1:1/__admin/stats", "other", "", []],
  ])("%s", (url, operation, product, codes) => {
    expect(describeCall(url)).toEqual({ operation, product, codes });
  });
});

test("the summary tells how full the data calls were and when they ran", () => {
  const call = (
    operation: LoggedCall["operation"],
    codes: number,
    startMs: number,
    endMs: number,
  ): LoggedCall => ({
    operation,
    product: "energy_price",
    codes: Array.from({ length: codes }, (_, index) => `${index}-1-1`),
    startMs,
    endMs,
    status: 200,
  });
  const summary = CallLog.summary(
    [
      call("access_token", 0, 100, 150),
      call("series_info", 0, 160, 300),
      call("data_limits", 0, 170, 260),
      call("series_hist", 40, 400, 700),
      call("series_hist", 3, 500, 900),
      call("series_values", 7, 600, 650),
    ],
    100,
  );
  expect(summary).toBe(
    "access_token answered at 50 ms, series_info answered at 200 ms, data_limits answered at 160 ms; " +
      "data calls from 300 ms to 800 ms after the start; series_hist codes per call: 40,3; series_values codes per call: 7",
  );
  expect(CallLog.summary([call("series_info", 0, 0, 10)], 0)).toBe("series_info answered at 10 ms");
  expect(CallLog.summary([], 0)).toBe("");
  const refused = { ...call("series_hist", 40, 0, 10), status: 429 };
  expect(CallLog.summary([refused, call("series_hist", 40, 20, 30)], 0)).toBe(
    "data calls from 0 ms to 30 ms after the start; 1 calls answered with status 429 (and were sent again); series_hist codes per call: 40,40",
  );
});

describe("tightestSpan", () => {
  // Start times, how many consecutive starts, the shortest time they took.
  test.each([
    ["fewer starts than asked", [0, 100], 3, null],
    ["evenly spaced", [0, 100, 200, 300], 3, 200],
    ["a bunch in the middle, unsorted", [500, 0, 520, 510, 900], 3, 20],
  ])("%s", (_case, starts, count, expected) => {
    expect(tightestSpan(starts, count)).toBe(expected);
  });
});
