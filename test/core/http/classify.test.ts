import type { PcdErrorKind } from "../../../src/core/errors";
import { PcdError } from "../../../src/core/errors";
import { isRetryable } from "../../../src/core/http/classify";

describe("isRetryable", () => {
  test.each<[PcdErrorKind, number | undefined, boolean]>([
    ["rate", 429, true],
    ["server", 500, true],
    ["server", 502, true],
    ["server", 501, false],
    ["unavailable", 503, true],
    ["network", undefined, true],
    ["timeout", undefined, true],
    ["bad_request", 400, false],
    ["not_found", 404, false],
    ["auth", 401, false],
    ["quota", 429, false],
    ["plan", 403, false],
    ["protocol", 200, false],
  ])("%s (HTTP %p) -> %p", (kind, status, expected) => {
    expect(isRetryable(new PcdError(kind, "x", status === undefined ? {} : { status }))).toBe(expected);
  });
});
