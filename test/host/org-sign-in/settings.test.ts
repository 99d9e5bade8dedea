import {
  buildTimeOrgSignIn,
  discoveryUrl,
  msalAuthority,
  orgSignInSettingsFrom,
} from "../../../src/host/org-sign-in/settings";

const ISSUER = "https://login.microsoftonline.com/tenant-1/v2.0";

test.each<
  [
    string,
    string | undefined,
    string | undefined,
    string | undefined,
    ReturnType<typeof orgSignInSettingsFrom>,
  ]
>([
  ["none given", undefined, undefined, undefined, null],
  [
    "all three",
    ISSUER,
    "client-1",
    "api://gw/access_as_user",
    { issuer: ISSUER, clientId: "client-1", scope: "api://gw/access_as_user" },
  ],
  [
    "a trailing slash on the issuer goes",
    `${ISSUER}/`,
    " client-1 ",
    "api://gw/x",
    { issuer: ISSUER, clientId: "client-1", scope: "api://gw/x" },
  ],
  ["no client ID", ISSUER, "", "api://gw/x", null],
  ["a blank scope", ISSUER, "client-1", "  ", null],
])("%s", (_case, issuer, clientId, scope, expected) => {
  expect(orgSignInSettingsFrom(issuer, clientId, scope)).toEqual(expected);
});

test.each([
  [ISSUER, "https://login.microsoftonline.com/tenant-1"],
  ["http://127.0.0.1:4100/issuer", "http://127.0.0.1:4100/issuer"],
])("MSAL's authority for %s", (issuer, authority) => {
  expect(msalAuthority(issuer)).toBe(authority);
});

test("the discovery document is under the issuer", () => {
  expect(discoveryUrl(ISSUER)).toBe(`${ISSUER}/.well-known/openid-configuration`);
});

test("outside a webpack build there is no organisation sign-in", () => {
  expect(buildTimeOrgSignIn()).toBeNull();
});
