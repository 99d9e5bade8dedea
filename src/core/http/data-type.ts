// Which data type a Series Info record belongs to. One call may hold codes of one
// data type only in the industry economics product, and no documented field names the
// type (docs/service.md §6.7), so it is derived from the record's wording. The energy and
// commodity products have a single type each.
import type { DataType, ProductId } from "../model";

/** The texts of a record that can name its kind (raw or normalised, any may be missing). */
export interface DataTypeHints {
  productName?: string | null;
  commodity?: string | null;
  assessment?: string | null;
}

const LOCATION_FACTOR = /location[\s_-]*factor/i;
// "index" also covers "cost index" and "construction cost index" wordings.
const COST_INDEX = /cost[\s_-]*index|construction[\s_-]*cost|\bindex(es)?\b|\bindices\b/i;

export function deriveDataType(product: ProductId, hints: DataTypeHints): DataType {
  if (product === "energy_price") return "energy";
  if (product === "commodity_price") return "commodity";
  const texts = [hints.commodity, hints.assessment, hints.productName].filter(
    (text): text is string => typeof text === "string",
  );
  // Location factors first: a factor's wording may also mention construction cost.
  if (texts.some((text) => LOCATION_FACTOR.test(text))) return "location_factor";
  if (texts.some((text) => COST_INDEX.test(text))) return "cost_index";
  return "utilities";
}
