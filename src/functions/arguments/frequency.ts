// The frequency of PCD.VALUES (9th argument): monthly rows, or averages of complete
// quarters or years. Accepts the letters and the words, in any case.
import {
  DEFAULT_FREQUENCY,
  FREQUENCY_CHOICES,
  FREQUENCY_NAMES,
  type Frequency,
} from "../../contracts/formula-options";
import { argumentError, describeValue, isOmitted } from "./argument-error";

/** '"M" (monthly, the default), "Q" (quarterly) or "Y" (annual)' */
const ALTERNATIVES = FREQUENCY_CHOICES.map((choice, index) => {
  const joiner = index === 0 ? "" : index === FREQUENCY_CHOICES.length - 1 ? " or " : ", ";
  return `${joiner}"${choice.value}" (${choice.meaning})`;
}).join("");

export function parseFrequency(input: unknown): Frequency {
  if (isOmitted(input)) return DEFAULT_FREQUENCY;
  const frequency = typeof input === "string" ? FREQUENCY_NAMES.get(input.trim().toLowerCase()) : undefined;
  if (frequency) return frequency;
  throw argumentError(
    "frequency",
    `The frequency must be ${ALTERNATIVES}; got ${describeValue(input)}.`,
    FREQUENCY_CHOICES.map((choice) => choice.value),
  );
}
