import type { ServiceOperation } from "../../../src/core/http/paths";
import { accessTokenUrl, operationUrl } from "../../../src/core/http/paths";
import type { ProductId, ServiceEnvironment } from "../../../src/core/model";
import { settingsWith } from "./fake-fetch";

describe("operationUrl (docs/service.md §4.2-§4.5, sandbox §4.7)", () => {
  test.each<[ServiceEnvironment, ProductId, ServiceOperation, string]>([
    ["live", "energy_price", "series_info", "https://pcd.example.com/energy_price/v1/export/series"],
    [
      "live",
      "commodity_price",
      "series_values",
      "https://pcd.example.com/commodity_price/v1/export/series/1-1-1&c=3,2-2-2",
    ],
    [
      "live",
      "industry_economics",
      "series_hist",
      "https://pcd.example.com/industry_economics/v1/export/series_hist/1-1-1&c=3,2-2-2",
    ],
    ["live", "energy_price", "data_limits", "https://pcd.example.com/energy_price/v1/data_limits"],
    [
      "sandbox",
      "energy_price",
      "series_info",
      "https://pcd.example.com/energy_price/v1/sandbox/export/series",
    ],
    [
      "sandbox",
      "commodity_price",
      "series_values",
      "https://pcd.example.com/commodity_price/v1/sandbox/export/series/1-1-1&c=3,2-2-2",
    ],
    [
      "sandbox",
      "industry_economics",
      "series_hist",
      "https://pcd.example.com/industry_economics/v1/sandbox/export/series_hist/1-1-1&c=3,2-2-2",
    ],
    // No sandbox Data Limits in the spec: the live address is used.
    ["sandbox", "commodity_price", "data_limits", "https://pcd.example.com/commodity_price/v1/data_limits"],
  ])("%s %s %s -> %s", (environment, product, operation, expected) => {
    expect(operationUrl(settingsWith(), environment, product, operation, "1-1-1&c=3,2-2-2")).toBe(expected);
  });

  test("the call's environment decides the address, not the settings' environment", () => {
    expect(
      operationUrl(
        settingsWith({ environment: "sandbox" }),
        "live",
        "energy_price",
        "series_values",
        "1-1-1",
      ),
    ).toBe("https://pcd.example.com/energy_price/v1/export/series/1-1-1");
    expect(
      operationUrl(settingsWith({ environment: "live" }), "sandbox", "energy_price", "series_info"),
    ).toBe("https://pcd.example.com/energy_price/v1/sandbox/export/series");
  });

  test("base paths come from the settings", () => {
    const settings = settingsWith({
      baseUrl: "https://host.example.com/api",
      productPaths: { industry_economics: "/utilities_prices" } as Record<ProductId, string>,
    });
    expect(operationUrl(settings, "live", "industry_economics", "series_info")).toBe(
      "https://host.example.com/api/utilities_prices/v1/export/series",
    );
  });

  test("the token address follows the authUrl setting", () => {
    expect(accessTokenUrl(settingsWith())).toBe("https://auth.example.com/access_token/v1");
  });
});

describe("a product name from user text that is not a product", () => {
  test.each(["__proto__", "constructor", "toString", "hasOwnProperty", "undefined"])(
    "%s has no address: an input error, never '<base>undefined/v1/...'",
    (name) => {
      expect(() => operationUrl(settingsWith({}), "live", name as ProductId, "data_limits")).toThrow(
        expect.objectContaining({ kind: "input", message: expect.stringMatching(/is not a PCD product/) }),
      );
    },
  );
});
