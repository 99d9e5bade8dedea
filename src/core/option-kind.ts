// Whether a text is a currency or a unit, so an argument given in the wrong slot can be
// named for what it is ("CHF looks like a currency"). The reference tables hold the names
// the service knows; a currency the service does not offer (CHF) is still a currency to
// the person who typed it, so the common ISO 4217 codes count too.
import { CURRENCIES, UNITS, findReference } from "./reference";

export type OptionKind = "currency" | "unit";

const OTHER_CURRENCY_CODES = new Set(
  (
    "chf cad aud nzd sek nok dkk pln czk huf ron bgn rub uah try inr idr krw twd thb sgd myr php vnd " +
    "hkd brl mxn ars clp cop pen zar sar aed qar kwd ils egp ngn"
  ).split(" "),
);

/** "currency", "unit", or null when the text is neither (any case and spacing). */
export function optionKindOf(text: string): OptionKind | null {
  const trimmed = text.trim();
  if (trimmed === "" || /^\d+$/.test(trimmed)) return null;
  if (findReference(CURRENCIES, trimmed) || OTHER_CURRENCY_CODES.has(trimmed.toLowerCase()))
    return "currency";
  if (findReference(UNITS, trimmed)) return "unit";
  return null;
}
