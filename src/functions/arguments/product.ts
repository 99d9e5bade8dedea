// The `product` argument of PCD.LIMITS and PCD.SEARCH: users write "energy", "energy_price"
// or "Energy Price" (the task pane's wording); all name the same product.
import type { ProductId } from "../../core/model";
import { argumentError, describeValue, isOmitted } from "./argument-error";

// A Map: user text such as "__proto__" or "constructor" must not find Object's properties.
const PRODUCT_NAMES: ReadonlyMap<string, ProductId> = new Map([
  ["energy", "energy_price"],
  ["energy_price", "energy_price"],
  ["energy_prices", "energy_price"],
  ["commodity", "commodity_price"],
  ["commodities", "commodity_price"],
  ["commodity_price", "commodity_price"],
  ["commodity_prices", "commodity_price"],
  ["primary_commodity", "commodity_price"],
  ["primary_commodity_price", "commodity_price"],
  ["industry", "industry_economics"],
  ["industry_economics", "industry_economics"],
  ["economics", "industry_economics"],
]);

export const PRODUCT_LABELS: Record<ProductId, string> = {
  energy_price: "Energy Price",
  commodity_price: "Commodity Price",
  industry_economics: "Industry Economics",
};

/** null = every product. */
export function parseProduct(input: unknown): ProductId | null {
  if (isOmitted(input)) return null;
  if (typeof input === "string") {
    const key = input
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_")
      .replace(/_product$/, "");
    const product = PRODUCT_NAMES.get(key);
    if (product) return product;
  }
  const what =
    typeof input === "string"
      ? `The product ${describeValue(input)} is not a PCD product`
      : `The product arrived as ${describeValue(input)}`;
  throw argumentError("product", `${what}: use "energy", "commodity" or "industry".`, [
    "energy",
    "commodity",
    "industry",
  ]);
}
