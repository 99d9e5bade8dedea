import { gatewayOf, jwtClaims } from "../../src/core/jwt-claims";

const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");
const token = (payload: string): string => `${part({ alg: "HS256" })}.${payload}.signature`;

test.each([
  [
    "exp and iat",
    token(part({ exp: 1_900_000_000, iat: 1_899_992_800 })),
    { exp: 1_900_000_000, iat: 1_899_992_800 },
  ],
  // "ü" and "?" make base64url's - and _ appear where base64 would have + and /.
  ["UTF-8 text in base64url", token(part({ sub: "Müller??>>" })), { sub: "Müller??>>" }],
  ["a payload without claims", token(part({})), {}],
  ["two parts: not a JWT", `${part({ alg: "none" })}.${part({ exp: 1 })}`, undefined],
  ["five parts (an encrypted JWT)", `a.${part({ exp: 1 })}.c.d.e`, undefined],
  ["a payload that is not base64url", token("!!!!"), undefined],
  ["an empty payload", token(""), undefined],
  ["a payload that is not JSON", token(Buffer.from("not json").toString("base64url")), undefined],
  ["a payload that is not an object", token(part([1, 2])), undefined],
  ["a payload of invalid UTF-8", token(Buffer.from([0x7b, 0xff, 0x7d]).toString("base64url")), undefined],
  ["an empty string", "", undefined],
])("%s", async (_name, jwt, expected) => {
  await expect(jwtClaims(jwt)).resolves.toEqual(expected);
});

test("jose that cannot load rejects with the cause, and the next call loads it", async () => {
  await jest.isolateModulesAsync(async () => {
    jest.doMock("jose/jwt/decode", () => {
      throw new Error("Loading chunk jwt-claims failed");
    });
    const isolated = await import("../../src/core/jwt-claims");
    const jwt = token(part({ exp: 1_900_000_000 }));
    await expect(isolated.jwtClaims(jwt)).rejects.toThrow("Loading chunk jwt-claims failed");
    jest.dontMock("jose/jwt/decode");
    await expect(isolated.jwtClaims(jwt)).resolves.toEqual({ exp: 1_900_000_000 });
  });
});

test("the claims are read with jose's own entry for it, never jose's main entry (all of jose, in a runner)", async () => {
  await jest.isolateModulesAsync(async () => {
    jest.doMock("jose", () => {
      throw new Error("jose's main entry was loaded");
    });
    const isolated = await import("../../src/core/jwt-claims");
    await expect(isolated.jwtClaims(token(part({ exp: 1_900_000_000 })))).resolves.toEqual({
      exp: 1_900_000_000,
    });
    jest.dontMock("jose");
  });
});

test("the base64url payload of the fixture really carries - and _", () => {
  expect(part({ sub: "Müller??>>" })).toMatch(/[-_]/);
});

// A team gateway's member token names the gateway as issuer and the member as subject; the
// service's own tokens name no issuer.
test.each<[string, Record<string, unknown> | undefined, { member: string } | null]>([
  [
    "a gateway token: its subject is the member",
    { iss: "pcd-gateway", sub: "ana@team.example", iat: 1, exp: 7201 },
    { member: "ana@team.example" },
  ],
  [
    "a gateway token without a subject: the account signed in",
    { iss: "pcd-gateway" },
    { member: "me@x.example" },
  ],
  ["a gateway token with an empty subject", { iss: "pcd-gateway", sub: " " }, { member: "me@x.example" }],
  ["a service token (no issuer)", { sub: "ana@team.example", iat: 1, exp: 7201 }, null],
  ["another issuer", { iss: "https://login.example.com", sub: "ana@team.example" }, null],
  ["an issuer that is not a text", { iss: ["pcd-gateway"], sub: "ana@team.example" }, null],
  ["claims that could not be read", undefined, null],
])("gatewayOf: %s", (_name, claims, expected) => {
  expect(gatewayOf(claims, "me@x.example")).toEqual(expected);
});
