// Conformance: Access Token (docs/service.md §4.1, §5) and the bearer token on every data operation.
import { decodeJwt, SignJWT } from "jose";
import { Harness, QUIET_NOW } from "./harness";

let service: Harness;

beforeAll(async () => {
  service = await Harness.start({ tokenTtlSeconds: 7200 });
});

afterAll(async () => {
  await service.close();
});

describe("access token", () => {
  test("valid credentials return only access_token, a JWT with iat and exp 7200 s apart", async () => {
    // The emulator clock advances with real time: iat lies between its readings around the call.
    const clockSeconds = async (): Promise<number> =>
      Math.floor(
        Date.parse((await service.request<{ now: string }>("GET", "/__admin/clock")).body.now) / 1000,
      );
    const before = await clockSeconds();
    const answer = await service.post<Record<string, unknown>>("/access_token/v1", {
      username: service.emulator.username,
      password: service.emulator.password,
    });
    const after = await clockSeconds();
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(["access_token"]);
    const claims = decodeJwt(String(answer.body.access_token));
    expect(typeof claims.iat).toBe("number");
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(7200);
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBeLessThanOrEqual(after);
    expect(before).toBeGreaterThanOrEqual(Math.floor(Date.parse(QUIET_NOW) / 1000));
  });

  test.each([
    ["wrong password", { username: "analyst@pcd.example", password: "nope" }],
    ["unknown user", { username: "someone@else.example", password: "pcd-emulator" }],
  ])("%s gets 401 with a message", async (_case, body) => {
    const answer = await service.post<{ message: string }>("/access_token/v1", body);
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/Invalid credentials/);
  });

  test.each([
    ["missing password", { username: "analyst@pcd.example" }, /password/],
    ["number username", { username: 5, password: "x" }, /username/],
    ["not an object", ["analyst@pcd.example", "pcd-emulator"], /Malformed/],
  ])("malformed body (%s) gets 400 naming the problem", async (_case, body, pattern) => {
    const answer = await service.post<{ message: string }>("/access_token/v1", body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(pattern);
  });

  test("invalid JSON gets 400", async () => {
    const answer = await service.request<{ message: string }>("POST", "/access_token/v1", {
      headers: { "content-type": "application/json" },
      body: "{username:",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/Malformed request/);
  });
});

describe("bearer token on every data operation", () => {
  const paths = [
    "/energy_price/v1/export/series",
    "/commodity_price/v1/export/series/68520-8-1",
    "/industry_economics/v1/export/series_hist/68520-8-1",
    "/energy_price/v1/data_limits",
    "/commodity_price/v1/sandbox/export/series",
    "/energy_price/v1/sandbox/export/series/68520-8-1",
    "/industry_economics/v1/sandbox/export/series_hist/68520-8-1",
  ];

  const badHeaders: [string, () => Promise<Record<string, string>>, RegExp][] = [
    ["missing", async () => ({}), /Missing Authorization/],
    ["not Bearer", async () => ({ authorization: "Basic abc" }), /Malformed Authorization/],
    ["garbage token", async () => ({ authorization: "Bearer not.a.jwt" }), /Invalid access token/],
    [
      "wrongly signed",
      async () => {
        const forged = await new SignJWT({})
          .setProtectedHeader({ alg: "HS256" })
          .setSubject("analyst@pcd.example")
          .setIssuedAt()
          .setExpirationTime("2h")
          .sign(new TextEncoder().encode("a-secret-the-emulator-does-not-know"));
        return { authorization: `Bearer ${forged}` };
      },
      /Invalid access token/,
    ],
  ];

  test.each(
    paths.flatMap((path) => badHeaders.map(([name, make, pattern]) => [path, name, make, pattern] as const)),
  )("%s with a %s Authorization gets 401", async (path, _name, make, pattern) => {
    const answer = await service.request<{ message: string }>("GET", path, { headers: await make() });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(pattern);
  });

  test("a token expires after its lifetime on the emulator clock", async () => {
    const token = await service.newToken();
    const headers = { authorization: `Bearer ${token}` };
    expect((await service.request("GET", "/energy_price/v1/data_limits", { headers })).status).toBe(200);
    await service.post("/__admin/clock", { now: "2026-11-10T20:00:30Z" });
    const expired = await service.request<{ message: string }>("GET", "/energy_price/v1/data_limits", {
      headers,
    });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);
    expect(expired.text).not.toContain(token);
    await service.post("/__admin/clock", { now: "2026-11-10T18:00:00Z" });
  });
});
