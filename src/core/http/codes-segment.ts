// The <codes> path segment of docs/service.md §4.6: "68520-8-1&c=3&u=7,912-5-2". The separators
// "," "&" "=" are sent literally: they are legal in a path segment and the service's
// grammar is defined on them, so percent-encoding would change the request.
import { PcdError } from "../errors";
import type { CodeRequest } from "../model";
import { MAX_CODES_PER_CALL } from "../service-client";

/** Three hyphen-separated digit groups of any width; leading zeros are significant. */
export const CODE_PATTERN = /^\d+-\d+-\d+$/;

export function isValidCode(code: string): boolean {
  return CODE_PATTERN.test(code);
}

function optionId(name: "c" | "u", code: string, id: number | null): string {
  if (id === null) return "";
  if (!Number.isInteger(id) || id < 0) {
    throw new PcdError(
      "bad_request",
      `Invalid ${name}=${String(id)} for code ${code}: expected an integer ID.`,
    );
  }
  return `&${name}=${id}`;
}

/**
 * Builds the segment for 1 to 40 distinct codes. Rejects, before any call, an empty
 * list, more than 40 codes, a malformed code or a code listed twice (a call never holds
 * the same code twice: the service would charge it twice).
 */
export function buildCodesSegment(codes: readonly CodeRequest[]): string {
  if (codes.length === 0) {
    throw new PcdError("bad_request", "A data call needs at least one code; none was given.");
  }
  if (codes.length > MAX_CODES_PER_CALL) {
    throw new PcdError(
      "bad_request",
      `A data call holds at most ${MAX_CODES_PER_CALL} codes; ${codes.length} were given.`,
    );
  }
  const seen = new Set<string>();
  return codes
    .map((request) => {
      if (!isValidCode(request.code)) {
        throw new PcdError(
          "bad_request",
          `"${request.code}" is not an assessment code (expected three hyphen-separated numbers, e.g. 68520-8-1).`,
        );
      }
      if (seen.has(request.code)) {
        throw new PcdError("bad_request", `Code ${request.code} appears twice in one data call.`);
      }
      seen.add(request.code);
      return (
        request.code +
        optionId("c", request.code, request.currencyId) +
        optionId("u", request.code, request.unitId)
      );
    })
    .join(",");
}
