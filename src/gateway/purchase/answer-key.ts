// The key an answer is kept under: product, operation, code and the options as the member sent
// them. Two members asking the same (code, currency, unit) share one purchase.
import type { RequestedCode } from "../codes-request";
import type { DataOperation } from "../gateway-operation";

export function answerKey(product: string, operation: DataOperation, requested: RequestedCode): string {
  return `live|${product}|${operation}|${requested.code}|c=${requested.currency}|u=${requested.unit}`;
}
