import { isSafeProxyPath } from "../../src/server/proxy-path";

test.each([
  "",
  "/",
  "/access_token/v1",
  "/energy_price/v1/export/series/A%2CB",
  "/energy_price/v1/export/series/",
  "/a.b/c...d",
])("relays %j", (rest) => {
  expect(isSafeProxyPath(rest)).toBe(true);
});

test.each([
  "/../x",
  "/a/../../x",
  "/.",
  "/%2e%2e/x",
  "/%2E%2E/x",
  "/.%2e/x",
  "/a%2F..%2Fx",
  "/a%5c..%5cx",
  "/a\\..\\x",
  "//evil.example/x",
  "/http://evil.example/x",
  "/a//b",
  "/%zz",
  "x",
])("refuses %j", (rest) => {
  expect(isSafeProxyPath(rest)).toBe(false);
});
