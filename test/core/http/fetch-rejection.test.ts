import { classifyFetchRejection } from "../../../src/core/http/fetch-rejection";

describe("classifyFetchRejection", () => {
  test("a rejected fetch is a network error naming the address", () => {
    const error = classifyFetchRejection(new TypeError("fetch failed"), {
      operation: "series_info",
      url: "https://pcd.example.com/energy_price/v1/export/series",
      timedOutAfterMs: null,
    });
    expect(error.kind).toBe("network");
    expect(error.message).toBe(
      "The service at https://pcd.example.com could not be reached for Series Info. Check the network, or the service address under Advanced in the task pane.",
    );
  });

  // The runtime's own words ("fetch failed", "Failed to fetch") add nothing; a system code says why.
  test.each([
    [
      "Node, connection refused",
      Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }),
      /Series Info \(connection refused\)\./,
    ],
    [
      "Node, unknown host",
      Object.assign(new TypeError("fetch failed"), { cause: { code: "ENOTFOUND" } }),
      /\(host not found\)/,
    ],
    [
      "Node, an unlisted code",
      Object.assign(new TypeError("fetch failed"), { cause: { code: "EPROTO" } }),
      /\(EPROTO\)/,
    ],
    ["Chromium", new TypeError("Failed to fetch"), /Series Info\. Check the network/],
    ["Safari", new TypeError("Load failed"), /Series Info\. Check the network/],
    ["a specific text", new Error("socket hang up"), /\(socket hang up\)/],
  ])("%s", (_case, rejection, expected) => {
    const error = classifyFetchRejection(rejection, {
      operation: "series_info",
      url: "https://pcd.example.com/energy_price/v1/export/series",
      timedOutAfterMs: null,
    });
    expect(error.message).toMatch(expected);
    expect(error.message).not.toMatch(/TypeError|fetch failed|Failed to fetch/);
    expect(error.details.reason === undefined).toBe(!/\(/.test(error.message));
  });

  test("an abort by our timeout is a timeout error", () => {
    const error = classifyFetchRejection(new DOMException("aborted", "AbortError"), {
      operation: "series_hist",
      url: "https://pcd.example.com/x",
      timedOutAfterMs: 300_000,
    });
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/Series Values History got no answer within 300 s/);
  });
});
