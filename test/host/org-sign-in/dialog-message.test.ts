import { readDialogMessage } from "../../../src/host/org-sign-in/dialog-message";

const ORIGIN = "https://addin.example.com";
const STATE = "state-1";
const TOKEN = { accessToken: "at", expiresIn: 3600, refreshToken: "rt" };
const message = (fields: unknown): string => JSON.stringify(fields);

test.each<[string, { message: string; origin?: string }, ReturnType<typeof readDialogMessage>]>([
  [
    "a token from the add-in for this state",
    { message: message({ type: "pcd-org-sign-in", state: STATE, token: TOKEN }), origin: ORIGIN },
    { token: TOKEN },
  ],
  [
    "a token from a host that reports no origin (it delivers only its own domain's)",
    { message: message({ type: "pcd-org-sign-in", state: STATE, token: { ...TOKEN, refreshToken: null } }) },
    { token: { ...TOKEN, refreshToken: null } },
  ],
  [
    "the dialog's failure",
    { message: message({ type: "pcd-org-sign-in", state: STATE, failure: "access_denied" }), origin: ORIGIN },
    { failure: "access_denied" },
  ],
  [
    "another origin is refused",
    {
      message: message({ type: "pcd-org-sign-in", state: STATE, token: TOKEN }),
      origin: "https://evil.example",
    },
    { refused: expect.stringContaining("https://evil.example") },
  ],
  [
    "another state is refused",
    { message: message({ type: "pcd-org-sign-in", state: "state-2", token: TOKEN }), origin: ORIGIN },
    { refused: expect.stringContaining("state differs") },
  ],
  ["not JSON", { message: "token=at", origin: ORIGIN }, { refused: "a message that is not JSON" }],
  ["JSON but not an object", { message: "42", origin: ORIGIN }, { refused: "a message of the wrong shape" }],
  [
    "another type",
    { message: message({ type: "other", state: STATE, token: TOKEN }), origin: ORIGIN },
    { refused: "a message of the wrong shape" },
  ],
  [
    "no token",
    { message: message({ type: "pcd-org-sign-in", state: STATE }), origin: ORIGIN },
    { refused: "a message of the wrong shape" },
  ],
  [
    "an empty token",
    {
      message: message({ type: "pcd-org-sign-in", state: STATE, token: { ...TOKEN, accessToken: "" } }),
      origin: ORIGIN,
    },
    { refused: "a message of the wrong shape" },
  ],
  [
    "a lifetime that is not a positive number",
    {
      message: message({ type: "pcd-org-sign-in", state: STATE, token: { ...TOKEN, expiresIn: "3600" } }),
      origin: ORIGIN,
    },
    { refused: "a message of the wrong shape" },
  ],
  [
    "a refresh token that is not text",
    {
      message: message({ type: "pcd-org-sign-in", state: STATE, token: { ...TOKEN, refreshToken: 7 } }),
      origin: ORIGIN,
    },
    { refused: "a message of the wrong shape" },
  ],
])("%s", (_case, received, expected) => {
  expect(readDialogMessage(received, { origin: ORIGIN, state: STATE })).toEqual(expected);
});

test("a refusal never quotes the token", () => {
  const outcome = readDialogMessage(
    {
      message: message({
        type: "pcd-org-sign-in",
        state: STATE,
        token: { accessToken: "secret-token", expiresIn: -1 },
      }),
    },
    { origin: ORIGIN, state: STATE },
  );
  expect(JSON.stringify(outcome)).not.toContain("secret-token");
});
