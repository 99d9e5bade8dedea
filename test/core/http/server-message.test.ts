import { extractServerMessage, redactSecrets } from "../../../src/core/http/server-message";

const PASSWORD = 'Tr0ub"dor\\42 <&> x';

describe("a service echoing the password cannot get it into a message", () => {
  const html = (shown: string): string =>
    `<html><body><p>Login failed with password ${shown}</p></body></html>`;
  // How the service echoes it, in the body it answers with.
  test.each([
    ["as typed, in a JSON message", JSON.stringify({ message: `bad password ${PASSWORD}` })],
    [
      "inside an echoed JSON request body",
      JSON.stringify({ message: `bad credentials in ${JSON.stringify({ password: PASSWORD })}` }),
    ],
    ["URL-encoded", `bad password ${encodeURIComponent(PASSWORD)}`],
    ["form-encoded", `password=${encodeURIComponent(PASSWORD).replace(/%20/g, "+")}`],
    ["in an HTML page, as typed", html(PASSWORD)],
    [
      "in an HTML page, entity-escaped",
      html(
        PASSWORD.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"),
      ),
    ],
    [
      "in an HTML page, numeric entities",
      html(PASSWORD.replace(/[<&>"\\]/g, (c) => `&#${c.charCodeAt(0)};`)),
    ],
  ])("%s", (_case, body) => {
    const message = extractServerMessage(body, [PASSWORD]) ?? "";
    expect(message).toContain("[redacted]");
    for (const piece of ["Tr0ub", "dor", "42"]) expect(message).not.toContain(piece);
  });

  test("HTML entities of ordinary text are shown decoded", () => {
    expect(extractServerMessage("<p>Fish &amp; chips &#8211; &lt;closed&gt;</p>")).toBe(
      "Fish & chips – <closed>",
    );
  });

  test("a secret is redacted wherever it appears, every time", () => {
    expect(redactSecrets(`a ${PASSWORD} b ${PASSWORD}`, [PASSWORD])).toBe("a [redacted] b [redacted]");
  });
});
