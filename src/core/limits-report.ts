// The allowances report the Usage tab and PCD.LIMITS show: every product's allowances, the
// products whose Data Limits could not be read listed apart. Only those two ask for it, so
// its code loads on their first use (data-limits-keeper.ts), not with Excel's start.
import type { LimitsNotReread, LimitsReport, LimitsRow, LimitsUnavailable } from "./engine-api";
import type { Logger } from "./environment";
import { type PcdError, toPcdError } from "./errors";
import { PRODUCTS, type DataLimits, type ProductId, type ServiceEnvironment } from "./model";
import type { QuotaLedger } from "./quota-ledger";

/** What the report reads: the keeper's limits of a product (data-limits-keeper.ts) and the ledger. */
export interface LimitsReportSource {
  environment: ServiceEnvironment;
  ledger: QuotaLedger;
  limitsOf(product: ProductId, reread?: (error: PcdError, readAt: number) => void): Promise<DataLimits>;
  log?: Logger;
}

/**
 * Every product's allowances (DataLimitsKeeper.report). With `reread`, every product is
 * read again; one that could not be shows its last reading and is listed in notReread.
 */
export async function buildLimitsReport(
  source: LimitsReportSource,
  options: { reread?: boolean },
): Promise<LimitsReport> {
  const { environment } = source;
  const notReread: LimitsNotReread[] = [];
  const results = await Promise.allSettled(
    PRODUCTS.map((product) =>
      source.limitsOf(
        product,
        options.reread === true
          ? (error, readAt) => {
              notReread.push({ product, message: error.message, readAt });
            }
          : undefined,
      ),
    ),
  );
  const rows: LimitsRow[] = [];
  const unavailable: LimitsUnavailable[] = [];
  results.forEach((result, i) => {
    const product = PRODUCTS[i];
    if (!product) return;
    if (result.status === "rejected") {
      const error = toPcdError(result.reason);
      source.log?.("warn", `Data Limits of ${product} failed: ${error.message}`);
      unavailable.push({
        product,
        message: error.message.trim() || `Data Limits of ${product} failed (${error.kind}).`,
        error,
      });
      return;
    }
    for (const [dataset, allowance] of Object.entries(result.value)) {
      const unconfirmed = source.ledger.unconfirmed(environment, product, dataset);
      rows.push({ product, dataset, ...allowance, ...(unconfirmed > 0 ? { unconfirmed } : {}) });
    }
  });
  // Nothing to show but failures: the cause itself is the answer (a cell shows it as an
  // error and retries a passing one, which a table of failure notes would not).
  const firstFailure = results.find((result) => result.status === "rejected");
  if (rows.length === 0 && firstFailure) throw firstFailure.reason;
  return notReread.length > 0 ? { rows, unavailable, notReread } : { rows, unavailable };
}
