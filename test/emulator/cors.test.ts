// The emulator allows the add-in's local origins by CORS, unless told to act like a
// gateway that allows no browser origin (the case npm run serve's proxy exists for).
import { startEmulator } from "../../src/emulator";

const PAGE_ORIGIN = "http://127.0.0.1:8080";
/** Away from maintenance and release days: on those the sign-in itself answers 503. */
const QUIET_DAY = "2026-11-10T15:00:00Z";

test.each([
  ["by default", {}, PAGE_ORIGIN],
  ["with cors: false", { cors: false }, undefined],
])("the preflight of a sign-in %s", async (_case, options, allowed) => {
  const emulator = await startEmulator({ port: 0, quiet: true, now: QUIET_DAY, ...options });
  try {
    const preflight = await fetch(`${emulator.url}/access_token/v1`, {
      method: "OPTIONS",
      headers: {
        Origin: PAGE_ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect(preflight.headers.get("access-control-allow-origin") ?? undefined).toBe(allowed);
    // Without a browser in the way the service still answers (the proxy's case).
    const signIn = await fetch(`${emulator.url}/access_token/v1`, {
      method: "POST",
      headers: { "content-type": "application/json", Origin: PAGE_ORIGIN },
      body: JSON.stringify({ username: emulator.username, password: emulator.password }),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get("access-control-allow-origin") ?? undefined).toBe(allowed);
  } finally {
    await emulator.close();
  }
});
