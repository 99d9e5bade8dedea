import { PcdError, type PcdErrorKind } from "../../src/core/errors";
import { missingError } from "../../src/core/serving";
import { MAX_ERROR_MESSAGE_LENGTH, toCellError, withRetryNote } from "../../src/functions/cell-errors";

test.each<[PcdErrorKind, string]>([
  ["input", "#VALUE!"],
  ["not_signed_in", "#N/A"],
  ["auth", "#N/A"],
  ["quota", "#N/A"],
  ["rate", "#N/A"],
  ["unavailable", "#N/A"],
  ["plan", "#N/A"],
  ["bad_request", "#N/A"],
  ["not_found", "#N/A"],
  ["server", "#N/A"],
  ["network", "#N/A"],
  ["timeout", "#N/A"],
  ["protocol", "#N/A"],
  ["storage", "#N/A"],
])("kind %s shows as %s with the engine's message", (kind, type) => {
  expect(toCellError(new PcdError(kind, `cause of ${kind}`))).toEqual({ type, message: `cause of ${kind}` });
});

test.each<[PcdErrorKind, RegExp]>([
  ["not_signed_in", /Not signed in/],
  ["quota", /quota/],
  ["unavailable", /unavailable/],
  ["network", /network/],
  ["not_found", /does not know/],
])("an empty %s message still names the cause", (kind, pattern) => {
  expect(toCellError(new PcdError(kind, "")).message).toMatch(pattern);
});

test("an input error that does not list the allowed values gets them appended", () => {
  const error = new PcdError("input", "currency GBP is not offered", {
    argument: "currency",
    allowed: ["EUR", "USD"],
  });
  expect(toCellError(error)).toEqual({
    type: "#VALUE!",
    message: "currency GBP is not offered. Allowed: EUR, USD.",
  });
});

test("an input error that already lists them is kept as is", () => {
  const error = new PcdError("input", "currency GBP: use EUR or USD.", { allowed: ["EUR", "USD"] });
  expect(toCellError(error).message).toBe("currency GBP: use EUR or USD.");
});

test("a quota error names the dataset", () => {
  const error = new PcdError("quota", "Quota limit reached", { dataset: "Germany" });
  expect(toCellError(error)).toEqual({
    type: "#N/A",
    message: "Quota limit reached. Quota reached for Germany.",
  });
});

test("a team gateway's refusal for the member's budget shows whole, in the gateway's words", () => {
  const said =
    "Quota limit reached for member ana.lopez@team.example: until 2026-12-03 the gateway's budget of 100 data requests " +
    "for dataset 'Northwest Europe' has 3 left; this request needs 5. Ask the gateway's administrator to raise the budget.";
  const error = new PcdError("quota", said, { dataset: "Northwest Europe", memberBudget: true });
  expect(toCellError(error)).toEqual({ type: "#N/A", message: said });
});

test("a member-budget refusal too long for a cell is shortened in its middle; what to do stays whole", () => {
  const said =
    "Quota limit reached for member maria.gonzalez-fernandez@contoso-engineering.example: until 2026-12-03 the gateway's budget of 1000 " +
    "data requests for dataset 'Alcohols & Organics Acids' has 120 left; this request needs 400. " +
    "Ask the gateway's administrator to raise the budget.";
  const { message } = toCellError(
    new PcdError("quota", said, { dataset: "Alcohols & Organics Acids", memberBudget: true }),
  );
  expect(message).toHaveLength(MAX_ERROR_MESSAGE_LENGTH);
  expect(message).toContain(": until 2026-12-03 the gateway's budget");
  expect(message).toMatch(
    /^Quota limit reached for member maria\.gonzalez-fernandez@contoso-engineering\.example: .*… Ask the gateway's administrator to raise the budget\.$/,
  );
});

test("a kept value's member-budget refusal, cut in its middle, gets no dataset sentence after what to do", () => {
  const said =
    "Quota limit reached for member maria.gonzalez-fernandez.procurement-analyst@contoso-engineering.example: until " +
    "2026-12-03 the gateway's budget of 1000 data requests for dataset 'Alcohols & Organics Acids' has 120 left; " +
    "this request needs 400. Ask the gateway's administrator to raise the budget.";
  const cause = new PcdError("quota", said, { dataset: "Alcohols & Organics Acids", memberBudget: true });
  const { message } = toCellError(missingError(cause, "57935-3-12", "the latest months"));
  expect(message).toHaveLength(MAX_ERROR_MESSAGE_LENGTH);
  expect(message).toContain("until 2026-12-03");
  expect(message.endsWith("… Ask the gateway's administrator to raise the budget.")).toBe(true);
});

test.each([
  [new TypeError("x is undefined"), "PCD internal error: x is undefined"],
  ["plain text thrown", "PCD internal error: plain text thrown"],
  [new Error(""), "PCD internal error: unknown failure"],
])("an unexpected exception becomes #N/A %#", (thrown, message) => {
  expect(toCellError(thrown)).toEqual({ type: "#N/A", message });
});

test("messages are cut to what Excel shows", () => {
  const message = toCellError(new PcdError("server", "x".repeat(400))).message;
  expect(message).toHaveLength(MAX_ERROR_MESSAGE_LENGTH);
  expect(message.endsWith("…")).toBe(true);
});

describe("withRetryNote", () => {
  const at = Date.parse("2026-11-15T14:05:00Z");
  test.each<[string, string, number | null, string]>([
    ["no retry planned: unchanged", "PCD could not be reached", null, "PCD could not be reached"],
    [
      "the cell's own retry time",
      "PCD could not be reached",
      at,
      "PCD could not be reached. Will try again at 14:05 UTC.",
    ],
    ["a full stop is not doubled", "Down.", at, "Down. Will try again at 14:05 UTC."],
  ])("%s", (_name, message, retryAt, expected) => {
    expect(withRetryNote({ type: "#N/A", message }, retryAt).message).toBe(expected);
  });

  test("a long cause is shortened so the retry time stays visible", () => {
    const message = withRetryNote({ type: "#N/A", message: "x".repeat(300) }, at).message;
    expect(message).toHaveLength(MAX_ERROR_MESSAGE_LENGTH);
    expect(message.endsWith("… Will try again at 14:05 UTC.")).toBe(true);
  });

  test("what is missing and the retry time both stay visible; the cause is cut", () => {
    const cause = `The service at http://127.0.0.1:37653 could not be reached for Series Values (connection closed by the service). ${"Check the network. ".repeat(6)}`;
    const message = withRetryNote(
      { type: "#N/A", message: `${cause.trim()}: the latest months of 57935-3-12 could not be fetched.` },
      at,
    ).message;
    expect(message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH);
    expect(message).toMatch(
      /^The service at .*…: the latest months of 57935-3-12 could not be fetched\. Will try again at 14:05 UTC\.$/,
    );
  });
});
