// The <codes> path segment of docs/service.md §4.6: "<code>&c=<id>&u=<id>,<code>&u=<id>&c=<id>,...".
// Malformed input (a bad code, an option other than c or u, an option given twice) is a
// client error naming the problem. An invalid currency or unit ID of any form (not a
// number, empty, negative, a fraction, or a number that is no ID) is not an error: the
// series' default applies, as for an omitted option (docs/service.md §4.6); the record's currency and
// unit state what was applied.
import { MAX_CODES_PER_CALL } from "./options";

export interface CodeRequestItem {
  code: string;
  currencyId: number | undefined;
  unitId: number | undefined;
}

export class CodesSegmentError extends Error {}

const CODE_PATTERN = /^\d+-\d+-\d+$/;
/** An option: its key, and whatever follows "=" (possibly nothing). */
const OPTION_PATTERN = /^([cu])(?:=(.*))?$/s;
/** A value that can be an ID at all; anything else is invalid and means "the default". */
const ID_PATTERN = /^\d{1,9}$/;

export function parseCodesSegment(segment: string): CodeRequestItem[] {
  if (segment.trim().length === 0) {
    throw new CodesSegmentError("No assessment codes given: expected 1 to 40 comma-separated codes");
  }
  const parts = segment.split(",");
  if (parts.length > MAX_CODES_PER_CALL) {
    throw new CodesSegmentError(
      `Too many codes: ${parts.length} requested, at most ${MAX_CODES_PER_CALL} per call`,
    );
  }
  return parts.map((part, index) => parseItem(part, index + 1));
}

function parseItem(part: string, position: number): CodeRequestItem {
  const [code = "", ...options] = part.split("&");
  if (!CODE_PATTERN.test(code)) {
    throw new CodesSegmentError(
      `Malformed code '${code}' at position ${position}: expected three hyphen-separated digit groups such as 68520-8-1`,
    );
  }
  const item: CodeRequestItem = { code, currencyId: undefined, unitId: undefined };
  const given = new Set<string>();
  for (const option of options) {
    const match = OPTION_PATTERN.exec(option);
    if (match === null) {
      throw new CodesSegmentError(
        `Malformed option '${option}' for code ${code}: expected c=<currency ID> or u=<unit ID>`,
      );
    }
    const [, key = "", value = ""] = match;
    if (given.has(key)) {
      throw new CodesSegmentError(`Option ${key} given twice for code ${code}`);
    }
    given.add(key);
    // An invalid ID stays undefined: the series' default applies.
    if (ID_PATTERN.test(value)) item[key === "c" ? "currencyId" : "unitId"] = Number(value);
  }
  return item;
}
