import { addressDefaults, buildTimeAddresses } from "../../src/host/build-addresses";

describe("addressDefaults", () => {
  test.each<[string, string | undefined, string | undefined, object]>([
    ["none given (a production build without PCD_SERVICE_URL)", undefined, undefined, {}],
    ["empty texts", "", " ", {}],
    [
      "a service address: the token address follows it",
      "https://pcd.example.com",
      undefined,
      { baseUrl: "https://pcd.example.com", authUrl: "https://pcd.example.com" },
    ],
    [
      "both addresses",
      "https://pcd.example.com/service",
      "https://auth.example.com",
      { baseUrl: "https://pcd.example.com/service", authUrl: "https://auth.example.com" },
    ],
    ["a token address only", undefined, "https://auth.example.com", { authUrl: "https://auth.example.com" }],
  ])("%s", (_case, serviceUrl, authUrl, expected) => {
    expect(addressDefaults(serviceUrl, authUrl)).toEqual(expected);
  });
});

test("outside a webpack build (no DefinePlugin) there are no build-time addresses", () => {
  expect(buildTimeAddresses()).toEqual({});
});
