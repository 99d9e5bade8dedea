// A service that echoes credentials back in its error bodies, in every form a red-team
// pass found (changed whitespace, upper case, URL-encoded, an HTML page, JSON-escaped):
// the sign-in's failure is told in PCD's words only, and a data call's failure shows the
// service's text with the token cut out. A password shorter than 4 characters garbles
// nothing and leaves service text out whole.
import { Auth } from "../../src/core/auth";
import type { EngineSettings } from "../../src/core/engine-api";
import type { FetchLike } from "../../src/core/environment";
import { PcdError } from "../../src/core/errors";
import { createServiceClient } from "../../src/core/http";
import { DEFAULT_SETTINGS } from "../../src/core/settings";

const PASSWORD = "Swordfish Delta 7";
const TOKEN = "aaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbb.cccccccccccccccccccccccccc";
const MARKER = "SERVICE-SAYS";
const clock = { now: () => Date.UTC(2026, 10, 10, 18) };
const settings = (): EngineSettings => ({
  ...DEFAULT_SETTINGS,
  baseUrl: "http://127.0.0.1:1",
  authUrl: "http://127.0.0.1:1",
});

/** The echo forms: how a hostile service writes the secret into its answer. */
function echoes(secret: string): Array<[string, string, string]> {
  const encoded = encodeURIComponent(secret);
  return [
    ["JSON, as typed", "application/json", JSON.stringify({ message: `${MARKER} bad ${secret}` })],
    ["changed whitespace", "text/plain", `${MARKER} bad ${secret.replace(/ /g, "\n\t  ")}`],
    ["upper case", "text/plain", `${MARKER} BAD ${secret.toUpperCase()}`],
    ["URL-encoded", "text/plain", `${MARKER} bad password=${encoded}`],
    [
      "form-encoded, lower-case hex",
      "text/plain",
      `${MARKER} p=${encoded.replace(/%20/g, "+").toLowerCase()}`,
    ],
    [
      "an HTML page",
      "text/html",
      `<html><body><h1>${MARKER}</h1><p>bad <b>${secret.replace(/ /g, "&nbsp;")}</b></p></body></html>`,
    ],
    [
      "JSON-escaped request body in a message",
      "application/json",
      JSON.stringify({ error: `${MARKER} ${JSON.stringify({ secret: `${secret}"\\` })}` }),
    ],
  ];
}

async function failure(work: Promise<unknown>): Promise<PcdError> {
  const error = await work.then(
    () => new Error("expected a failure"),
    (caught: unknown) => caught,
  );
  if (!(error instanceof PcdError)) throw error;
  return error;
}

function answering(status: number, type: string, body: string): FetchLike {
  return async () => new Response(body, { status, headers: { "Content-Type": type } });
}

function visible(error: PcdError): string {
  return `${error.message} ${JSON.stringify(error.details)}`;
}

describe("sign-in: the token service's text is never shown", () => {
  const cases = [400, 401, 403, 429, 500, 503].flatMap((status) =>
    echoes(PASSWORD).map(([form, type, body]) => [status, form, type, body] as const),
  );
  test.each(cases)("HTTP %i, %s", async (status, _form, type, body) => {
    const auth = new Auth({ fetch: answering(status, type, body), clock, settings });
    const error = await failure(auth.signIn("analyst", PASSWORD));
    const shown = visible(error);
    expect(shown).toMatch(/^Sign-in failed: /);
    expect(shown).not.toContain(MARKER);
    expect(shown.toLowerCase()).not.toMatch(/swordfish|delta/);
    // The cells' "not signed in" message repeats the cause: in PCD's words too.
    const cell = await failure(auth.token());
    expect(cell.message).not.toContain(MARKER);
    expect(cell.message.toLowerCase()).not.toContain("swordfish");
  });
});

describe("data calls: the service's text is shown with the token cut out", () => {
  test.each(echoes(TOKEN))("%s", async (_form, type, body) => {
    const client = createServiceClient({
      fetch: answering(500, type, body),
      clock,
      auth: { token: async () => TOKEN, renew: async () => TOKEN },
      settings,
      retry: { maxRetries: 0 },
    });
    const error = await failure(client.dataLimits("energy_price"));
    const shown = visible(error);
    expect(shown).toContain(MARKER);
    expect(shown).toContain("[redacted]");
    expect(shown.toLowerCase()).not.toMatch(/aaaaaaaa|bbbbbbbb|cccccccc/);
  });
});

describe("a password shorter than 4 characters", () => {
  test("an unreachable service: the message is whole, not 'htt[redacted]://... task [redacted]ane'", async () => {
    const refused: FetchLike = async () => {
      throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    };
    const auth = new Auth({ fetch: refused, clock, settings });
    const error = await failure(auth.signIn("analyst", "p"));
    expect(error.message).toBe(
      "Sign-in failed: The service at http://127.0.0.1:1 could not be reached for Access Token (connection refused). " +
        "Check the network, or the service address under Advanced in the task pane.",
    );
  });

  test.each(echoes("p1").map(([form, type, body]) => [form, type, body] as const))(
    "the service's text is left out whole: %s",
    async (_form, type, body) => {
      const auth = new Auth({ fetch: answering(500, type, body), clock, settings });
      const error = await failure(auth.signIn("analyst", "p1"));
      expect(error.message).toBe(
        "Sign-in failed: The service is failing: it answered HTTP 500 to Access Token.",
      );
      expect(error.details.serverMessage).toBeUndefined();
    },
  );
});
