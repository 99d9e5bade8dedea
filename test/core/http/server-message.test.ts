import { extractServerMessage } from "../../../src/core/http/error-body";
import { redactSecrets, redactServiceText } from "../../../src/core/http/server-message";

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

describe("service text is normalised before it is redacted", () => {
  const SECRET = "Open Sesame/42";
  // Each echo form a hostile service was seen to use, in each shape of body a service answers with.
  test.each([
    ["changed whitespace", `login failed for "Open   Sesame/42"`],
    ["a line break inside", `login failed for Open\n\tSesame/42 (try again)`],
    ["no space at all", `login failed for OpenSesame/42`],
    ["upper case", `LOGIN FAILED FOR OPEN SESAME/42`],
    ["mixed case and spacing", `password oPEN  sESAME/42 refused`],
    ["URL-encoded", `password=${encodeURIComponent(SECRET)}`],
    ["URL-encoded in lower-case hex", `password=${encodeURIComponent(SECRET).toLowerCase()}`],
    ["form-encoded", `password=${encodeURIComponent(SECRET).replace(/%20/g, "+")}`],
    ["upper-cased and URL-encoded", `password=${encodeURIComponent(SECRET.toUpperCase())}`],
    ["an HTML page", `<html><body><h1>Error</h1><p>Password Open Sesame/42 refused</p></body></html>`],
    [
      "an HTML page, split by tags",
      `<html><body><p>Password <b>Open</b>\n<i>Sesame/42</i></p></body></html>`,
    ],
    ["an HTML page, entities", `<p>Password Open&nbsp;Sesame&#x2F;42 &amp; more</p>`],
    ["an HTML page, upper case entities", `<p>PASSWORD OPEN&#32;SESAME&#47;42</p>`],
    [
      "JSON-escaped in a JSON message",
      JSON.stringify({ message: `bad body ${JSON.stringify({ p: SECRET })}` }),
    ],
    ["JSON-escaped in plain text", `bad body {"password":${JSON.stringify(SECRET)}}`],
    ["JSON message with entities", JSON.stringify({ error: "bad password Open&#32;Sesame%2F42" })],
  ])("%s", (_case, body) => {
    const message = extractServerMessage(body, [SECRET]) ?? "";
    expect(message).toContain("[redacted]");
    expect(message.toLowerCase()).not.toMatch(/sesame|open.?sesame|%2f42/);
    expect(message).not.toMatch(/\s{2}/);
  });

  test("text around the echo is kept, decoded and collapsed", () => {
    expect(extractServerMessage(`<p>Password  OPEN%20SESAME%2F42\n refused &amp; logged</p>`, [SECRET])).toBe(
      "Password [redacted] refused & logged",
    );
  });

  test("an entity named like an Object property stays as written", () => {
    expect(extractServerMessage("<p>&constructor; &toString; &__proto__;</p>")).toBe(
      "&constructor; &toString; &__proto__;",
    );
  });
});

describe("a password shorter than 4 characters", () => {
  test.each(["p", "ab", "x1!"])("%s: service text is left out whole", (password) => {
    for (const body of [
      JSON.stringify({ message: `Bad password ${password}` }),
      "<p>Service unavailable, https only</p>",
      "Nothing about the password",
    ]) {
      expect(extractServerMessage(body, [password])).toBeNull();
      expect(redactServiceText(body, [password])).toBeNull();
    }
  });

  test("PCD's own text is not garbled: p does not turn https into htt[redacted]s", () => {
    const own = "The service at https://127.0.0.1:1 could not be reached; see the task pane.";
    expect(redactSecrets(own, ["p"])).toBe(own);
    expect(redactSecrets(own, ["ask"])).toBe(own);
  });

  test("4 characters are redacted as usual", () => {
    expect(extractServerMessage("wrong login PaSS here", ["pass"])).toBe("wrong login [redacted] here");
  });
});

describe("huge error bodies", () => {
  const TOKEN = "aaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbb.cccccccccccccccccccccccccc";

  test("a body over 1 MiB is no message: nothing of it is shown", () => {
    expect(extractServerMessage(`<p>${"x ".repeat(600_000)}</p>`, [TOKEN])).toBeNull();
  });

  test("a 1 MB body repeating the token's beginning (the slowest text to search) is searched only where shown", () => {
    const body = `${TOKEN.toUpperCase()} ${TOKEN.slice(0, -1).repeat(Math.floor(1_000_000 / TOKEN.length))}`;
    const message = extractServerMessage(body, [TOKEN]) ?? "";
    expect(message.length).toBeLessThanOrEqual(300);
    expect(message.startsWith("[redacted]")).toBe(true);
    expect(message.toLowerCase()).not.toContain(TOKEN.split(".")[2]);
  });

  test("a secret spread over whitespace deep in a long text is still cut out where the text is shown", () => {
    const spread = [..."Open Sesame/42"].join("   ");
    const message = extractServerMessage(`${" ".repeat(200_000)}bad ${spread} end`, ["Open Sesame/42"]);
    expect(message).toBe("bad [redacted] end");
  });
});

describe("echoes hidden by format characters, spacing or encodings", () => {
  const SECRET = "Open Sesame/42";
  const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbmFseXN0In0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
  test.each([
    ["split by zero-width spaces", `password O\u200bpen Ses\u200bame/42 refused`],
    ["split by soft hyphens", `password Open Ses\u00adame/42 refused`],
    ["split by a zero-width joiner and a direction mark", `password Open\u200d Sesame\u200e/42`],
    ["spaced with a no-break space", `password Open\u00a0Sesame/42 refused`],
    ["spaced with a tab", `password Open\tSesame/42 refused`],
    ["numeric entities in plain text", `password &#79;pen &#83;esame&#47;42`],
    ["URL-encoded twice", `password=${encodeURIComponent(encodeURIComponent(SECRET))}`],
    ["URL-encoded three times", `p=${encodeURIComponent(encodeURIComponent(encodeURIComponent(SECRET)))}`],
  ])("%s", (_case, body) => {
    const message = extractServerMessage(body, [SECRET]) ?? "";
    expect(message).toContain("[redacted]");
    expect(message.toLowerCase()).not.toMatch(/sesame/);
  });

  test.each([
    ["the token in base64", `token ${Buffer.from(TOKEN).toString("base64")} rejected`],
    ["the token split by zero-width spaces", `token ${[...TOKEN].join("\u200b")} rejected`],
    ["a hex key", "signing key 3f9a0c77d1e24b5a9c0e rejected"],
  ])("%s is masked", (_case, body) => {
    const message = extractServerMessage(body, [TOKEN]) ?? "";
    expect(message).toMatch(/^token \[redacted\] rejected$|^signing key \[redacted\] rejected$/);
  });

  test.each([
    "Internationalisation of Northwest Europe's dataset 2026-11",
    "GET https://api.example.com/v1/series_values/energy_price failed",
    "request 3f9a0c77-d1e2-4b5a-9c0e-1234567890ab failed",
    "quota reached for dataset Germany/Industry-2024",
    "codes 68520-8-1,69138-1-13,91201-1-5,43125-8-1 not found",
  ])("%s: not masked", (text) => {
    expect(redactSecrets(text, [])).toBe(text);
  });
});
