// The amount of PCD.ESCALATE and PCD.RELOCATE: a number (an Excel number, or text that is
// one). Anything else is #VALUE! naming the argument: a cost model must never multiply text.
import { argumentError, describeValue, isOmitted } from "./argument-error";

export function parseAmount(input: unknown): number {
  if (typeof input === "number" && Number.isFinite(input)) return input;
  if (typeof input === "string" && !isOmitted(input)) {
    const number = Number(input.trim().replace(/,/g, ""));
    if (Number.isFinite(number)) return number;
  }
  throw argumentError(
    "amount",
    isOmitted(input)
      ? "The amount is required: give the cost or price to convert, e.g. 1250000."
      : `The amount must be a number, e.g. 1250000; got ${describeValue(input)}.`,
  );
}
