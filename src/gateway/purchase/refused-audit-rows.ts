// What the gateway says about a purchase's audit row the database refused. The service charged
// the call all the same, and the row waits in the gateway's memory to be written again
// (purchase-audit-writer.ts): memory a crash or a killed process loses. So the gateway prints
// the row on standard error (the service manager's journal keeps it) when it is refused, again
// when it is written after all, and when nothing will write it (still refused as the gateway
// stops, or refused after). A "waiting" line without its "written" line is a row the usage
// report lacks, whatever ended the gateway: an administrator can enter it by hand. Each line
// ends with the row as JSON, the same for the three, so that they can be matched.
// A stop also waits for the calls still out, as long as a call may take (purchase-queue.ts,
// STOP_WAIT_MS): a call still out then may be charged with no audit row ever written, so it is
// printed too ("cut off"), as the row it would have had, stamped with when the call was sent.
import type { Purchase } from "../store/gateway-store";

/**
 * What happened to the row: refused and kept, written after all, given up, or never made (its
 * call was still out when the stop stopped waiting for it).
 */
export type RefusedRowEvent = "waiting" | "written" | "lost" | "cut off";

/** Where the gateway reports refused audit rows (the gateway app's setting; stderr by default). */
export interface RefusedAuditRows {
  waiting(purchase: Purchase): void;
  written(purchase: Purchase): void;
  lost(purchases: readonly Purchase[]): void;
  cutOff(calls: readonly Purchase[]): void;
}

function charged(purchase: Purchase): string {
  const count = purchase.codes.length;
  return `the service charged ${count} data request${count === 1 ? "" : "s"}`;
}

function mayCharge(call: Purchase): string {
  const count = call.codes.length;
  return `the service may charge up to ${count} data request${count === 1 ? "" : "s"}`;
}

const SAYS: Record<RefusedRowEvent, (purchase: Purchase) => string> = {
  waiting: (purchase) =>
    `the database refused a purchase's audit row (${charged(purchase)}); the gateway keeps it and ` +
    "writes it again, and a later line says when: without that line the usage report lacks it",
  written: () => "a purchase's audit row the database refused before is now written",
  lost: (purchase) =>
    `stopped with a purchase the database would not record (${charged(purchase)}; ` +
    "the usage report lacks them)",
  "cut off": (purchase) =>
    `stopped while a purchase's call was still out (${mayCharge(purchase)}; ` +
    "the usage report lacks them)",
};

export function refusedAuditRowLine(event: RefusedRowEvent, purchase: Purchase): string {
  const row = {
    at: purchase.at.toISOString(),
    product: purchase.product,
    operation: purchase.operation,
    codes: purchase.codes.map(({ code, dataset, member }) => ({ code, dataset, member })),
  };
  return `PCD gateway: ${SAYS[event](purchase)}: ${JSON.stringify(row)}`;
}

const print = (event: RefusedRowEvent, purchase: Purchase): void => {
  process.stderr.write(`${refusedAuditRowLine(event, purchase)}\n`);
};

/** The gateway's default: each event on standard error, one line per purchase. */
export const printRefusedAuditRows: RefusedAuditRows = {
  waiting: (purchase) => print("waiting", purchase),
  written: (purchase) => print("written", purchase),
  lost: (purchases) => {
    for (const purchase of purchases) print("lost", purchase);
  },
  cutOff: (calls) => {
    for (const call of calls) print("cut off", call);
  },
};
