// The organisation sign-in flags of `npm run gateway` (issuer, audience and repeatable tenants)
// and the front ends it believes (--trust-proxy), each mistake a message naming the flag.
import { GatewayArgumentError, parseGatewayArgs } from "../../src/gateway/gateway-args";

const BASE = ["--upstream", "https://service.example/pcd", "--database", "/var/lib/pcd-gateway"];
const ISSUER = "https://login.microsoftonline.com/11111111-2222-3333-4444-555555555555/v2.0";

test.each([
  { case: "no organisation sign-in", argv: [], oidc: null },
  {
    case: "issuer and audience",
    argv: ["--oidc-issuer", ISSUER, "--oidc-audience", "gateway-client-id"],
    oidc: { issuer: ISSUER, audience: "gateway-client-id", tenants: [] },
  },
  {
    case: "tenants, repeated",
    argv: ["--oidc-issuer", ISSUER, "--oidc-audience", "id", "--oidc-tenant", "t1", "--oidc-tenant", "t2"],
    oidc: { issuer: ISSUER, audience: "id", tenants: ["t1", "t2"] },
  },
  {
    case: "an issuer with a trailing slash, kept as given",
    argv: ["--oidc-issuer", "https://tenant.auth.example/", "--oidc-audience", "id"],
    oidc: { issuer: "https://tenant.auth.example/", audience: "id", tenants: [] },
  },
  {
    case: "a plain http issuer on this machine",
    argv: ["--oidc-issuer", "http://127.0.0.1:9000", "--oidc-audience", "id"],
    oidc: { issuer: "http://127.0.0.1:9000", audience: "id", tenants: [] },
  },
])("$case", ({ argv, oidc }) => {
  expect(parseGatewayArgs([...BASE, ...argv]).oidc).toEqual(oidc);
});

test.each([
  {
    case: "an issuer without an audience",
    argv: ["--oidc-issuer", ISSUER],
    message: "--oidc-issuer needs --oidc-audience",
  },
  { case: "an audience without an issuer", argv: ["--oidc-audience", "id"], message: "need --oidc-issuer" },
  { case: "a tenant without an issuer", argv: ["--oidc-tenant", "t1"], message: "need --oidc-issuer" },
  {
    case: "a plain http issuer elsewhere",
    argv: ["--oidc-issuer", "http://login.example", "--oidc-audience", "id"],
    message: "--oidc-issuer must be an https address",
  },
  {
    case: "an issuer that is no address",
    argv: ["--oidc-issuer", "login.example", "--oidc-audience", "id"],
    message: "--oidc-issuer expects an address",
  },
  {
    case: "an empty tenant",
    argv: ["--oidc-issuer", ISSUER, "--oidc-audience", "id", "--oidc-tenant", ""],
    message: "--oidc-tenant needs a value",
  },
])("$case: refused naming the flag", ({ argv, message }) => {
  const parse = () => parseGatewayArgs([...BASE, ...argv]);
  expect(parse).toThrow(GatewayArgumentError);
  expect(parse).toThrow(message);
});

test.each([
  { case: "no front end", argv: [], trustProxy: [] },
  {
    case: "one on this machine, both families",
    argv: ["--trust-proxy", "127.0.0.1,::1"],
    trustProxy: ["127.0.0.1", "::1"],
  },
  {
    case: "ranges, spaces around the commas",
    argv: ["--trust-proxy", "10.0.0.0/8, fd00::/8"],
    trustProxy: ["10.0.0.0/8", "fd00::/8"],
  },
  {
    case: "the flag repeated",
    argv: ["--trust-proxy", "127.0.0.1", "--trust-proxy", "172.17.0.1"],
    trustProxy: ["127.0.0.1", "172.17.0.1"],
  },
])("front ends: $case", ({ argv, trustProxy }) => {
  expect(parseGatewayArgs([...BASE, ...argv]).trustProxy).toEqual(trustProxy);
});

test.each([
  ["a name, not an address", "proxy.example"],
  ["an empty entry", "127.0.0.1,"],
  ["a prefix too long for IPv4", "10.0.0.0/33"],
  ["a prefix that is no number", "10.0.0.0/eight"],
  ["two prefixes", "10.0.0.0/8/8"],
  ["every IPv4 address (/0)", "0.0.0.0/0"],
  ["every IPv6 address (/0)", "::/0"],
])("front ends: %s is refused naming the flag", (_case, value) => {
  const parse = () => parseGatewayArgs([...BASE, "--trust-proxy", value]);
  expect(parse).toThrow(GatewayArgumentError);
  expect(parse).toThrow(
    `--trust-proxy expects the front ends' addresses or ranges (127.0.0.1,::1 or 10.0.0.0/8), got '`,
  );
});

test.each<[string, string[], { max: number; windowMs: number } | null | undefined]>([
  // case, flags, the limit on a client's failed password checks
  ["not given: the gateway's default", [], undefined],
  ["a number: that many in 10 minutes", ["--failed-sign-ins", "12"], { max: 12, windowMs: 600_000 }],
  ["0: no such limit", ["--failed-sign-ins", "0"], null],
])("failed sign-ins: %s", (_case, argv, limit) => {
  expect(parseGatewayArgs([...BASE, ...argv]).failedSignIns).toEqual(limit);
});

test.each([
  ["a word", ["--failed-sign-ins", "many"]],
  ["a negative number", ["--failed-sign-ins=-1"]],
  ["past the bound", ["--failed-sign-ins", "10001"]],
])("failed sign-ins: %s is refused naming the flag", (_case, argv) => {
  const parse = () => parseGatewayArgs([...BASE, ...argv]);
  expect(parse).toThrow(GatewayArgumentError);
  expect(parse).toThrow("--failed-sign-ins expects a whole number from 0 to 10000");
});

test.each<[string, string[], number | undefined]>([
  // case, flags, the release's business day (members' budgets reset then)
  ["not given: the one the database keeps", [], undefined],
  ["a later plan's day", ["--release-day", "5"], 5],
  ["the bound", ["--release-day", "10"], 10],
])("release day: %s", (_case, argv, day) => {
  expect(parseGatewayArgs([...BASE, ...argv]).releaseBusinessDay).toBe(day);
});

test.each([
  ["0", ["--release-day", "0"]],
  ["past the 10th", ["--release-day", "11"]],
  ["a word", ["--release-day", "third"]],
])("release day: %s is refused naming the flag", (_case, argv) => {
  const parse = () => parseGatewayArgs([...BASE, ...argv]);
  expect(parse).toThrow(GatewayArgumentError);
  expect(parse).toThrow(
    "--release-day expects the release's business day of the month, a whole number from 1 to 10",
  );
});
