// A member's <codes> path segment (docs/service.md §4.6): "68520-8-1&c=3&u=7,912-5-2". The
// gateway reads it to look each code up in its store and packs the codes it must buy into
// upstream calls of its own, so it reads the grammar strictly and refuses what the service
// would refuse, before anything is bought.
import { isValidCode } from "../core/http/codes-segment";
import { MAX_CODES_PER_CALL } from "../core/service-client";

export interface RequestedCode {
  code: string;
  /** The c and u option values as sent ("" when absent). */
  currency: string;
  unit: string;
}

export class CodesRequestError extends Error {}

const OPTION = /^([cu])=(\d{1,9})$/;

function parseItem(text: string): RequestedCode {
  const [code = "", ...options] = text.split("&");
  if (!isValidCode(code)) {
    throw new CodesRequestError(
      `"${code.slice(0, 40)}" is not an assessment code (expected three hyphen-separated numbers, e.g. 68520-8-1).`,
    );
  }
  const item: RequestedCode = { code, currency: "", unit: "" };
  for (const option of options) {
    const match = OPTION.exec(option);
    if (match === null) {
      throw new CodesRequestError(
        `"${option.slice(0, 40)}" after code ${code} is not an option: expected c=<currency id> or u=<unit id>.`,
      );
    }
    const [, name, value] = match;
    if (name === "c") item.currency = String(Number(value));
    else item.unit = String(Number(value));
  }
  return item;
}

/** The codes of one member request, in order; a malformed segment is refused whole. */
export function parseCodesRequest(segment: string): RequestedCode[] {
  const texts = segment.split(",");
  if (texts.length > MAX_CODES_PER_CALL) {
    throw new CodesRequestError(
      `A call holds at most ${MAX_CODES_PER_CALL} codes; this one holds ${texts.length}.`,
    );
  }
  return texts.map(parseItem);
}

/** The segment of one upstream call (codes already distinct, see purchase-queue.ts). */
export function codesSegment(items: readonly RequestedCode[]): string {
  return items
    .map(
      (item) =>
        item.code +
        (item.currency === "" ? "" : `&c=${item.currency}`) +
        (item.unit === "" ? "" : `&u=${item.unit}`),
    )
    .join(",");
}
