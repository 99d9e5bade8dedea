import { accountOf, claimsOf } from "../../../src/host/org-sign-in/issued-token";
import { makeJwt } from "../../core/http/fake-fetch";

test.each<[string, string, string | null, string]>([
  [
    "preferred_username, in lower case",
    makeJwt({ preferred_username: "Ana@Example.com", email: "x@y" }),
    null,
    "ana@example.com",
  ],
  [
    "email when there is no preferred_username",
    makeJwt({ email: "ben@example.com", upn: "b@x" }),
    null,
    "ben@example.com",
  ],
  ["upn last", makeJwt({ upn: "Cy@Example.com" }), null, "cy@example.com"],
  ["none: MSAL's account name", makeJwt({ sub: "123" }), "Dee@Example.com", "dee@example.com"],
  ["not a JWT, no fallback: a neutral name", "opaque-token", null, "your organisation's account"],
  [
    "non-ASCII names survive the decoding",
    makeJwt({ preferred_username: "zoë@example.com" }),
    null,
    "zoë@example.com",
  ],
])("the account: %s", (_case, token, fallback, expected) => {
  expect(accountOf(token, fallback)).toBe(expected);
});

test.each<[string, string]>([
  ["no payload", "header-only"],
  ["a payload that is not JSON", "a.bm90LWpzb24.c"],
  ["a payload that is an array", `a.${Buffer.from("[1]").toString("base64url")}.c`],
])("claims of a token with %s: none", (_case, token) => {
  expect(claimsOf(token)).toEqual({});
});
