// A purchase's audit row the database still refused when the gateway stopped (or refused for a
// purchase answered while it stopped): the service charged the call, and nothing will write the
// row now. The gateway prints it on standard error
// (the service manager's journal keeps it), one line per purchase with the row as JSON, so that
// an administrator can see what the usage report lacks and enter it by hand.
import type { Purchase } from "../store/gateway-store";

export function lostPurchaseAuditLine(purchase: Purchase): string {
  const row = {
    at: purchase.at.toISOString(),
    product: purchase.product,
    operation: purchase.operation,
    codes: purchase.codes.map(({ code, dataset, member }) => ({ code, dataset, member })),
  };
  return (
    "PCD gateway: stopped with a purchase the database would not record (the service charged " +
    `${purchase.codes.length} data request${purchase.codes.length === 1 ? "" : "s"}; ` +
    `the usage report lacks them): ${JSON.stringify(row)}`
  );
}

/** Where the gateway reports such purchases unless told otherwise: standard error. */
export function printLostPurchaseAudits(purchases: readonly Purchase[]): void {
  for (const purchase of purchases) process.stderr.write(`${lostPurchaseAuditLine(purchase)}\n`);
}
