// `usage`: what each member's requests cost in a month (data requests the upstream charged) and
// what the cache saved (answers served without a charge), per product and dataset, with totals.
import { parseArgs } from "node:util";
import type { UsageRow } from "../store/gateway-store";
import { monthOf, parseMonth } from "../store/utc-month";
import {
  messageOf,
  parsedOrUsageError,
  requireDatabase,
  runCommand,
  UsageError,
  withStore,
} from "./command-arguments";
import { EXIT_FAILED, EXIT_OK, say, type CommandIo } from "./command-io";
import { textTable } from "./text-table";

export const USAGE_USAGE = "usage [--month YYYY-MM] [--json] --database SPEC";

const OPTIONS = {
  database: { type: "string" },
  month: { type: "string" },
  json: { type: "boolean" },
} as const;

export interface DatasetTotal {
  product: string;
  dataset: string;
  purchased: number;
  fromCache: number;
}

export interface UsageReport {
  month: string;
  rows: UsageRow[];
  totals: { datasets: DatasetTotal[]; purchased: number; fromCache: number };
}

export function usageReport(month: string, rows: UsageRow[]): UsageReport {
  const datasets = new Map<string, DatasetTotal>();
  for (const row of rows) {
    const id = `${row.product}\u0000${row.dataset}`;
    const total = datasets.get(id) ?? {
      product: row.product,
      dataset: row.dataset,
      purchased: 0,
      fromCache: 0,
    };
    total.purchased += row.purchased;
    total.fromCache += row.fromCache;
    datasets.set(id, total);
  }
  const sorted = [...datasets.values()].sort(
    (a, b) => a.product.localeCompare(b.product) || a.dataset.localeCompare(b.dataset),
  );
  return {
    month,
    rows,
    totals: {
      datasets: sorted,
      purchased: rows.reduce((sum, row) => sum + row.purchased, 0),
      fromCache: rows.reduce((sum, row) => sum + row.fromCache, 0),
    },
  };
}

function printReport(report: UsageReport, io: CommandIo): void {
  if (report.rows.length === 0) {
    say(io.stdout, `No requests in ${report.month} (UTC).`);
    return;
  }
  const header = ["member", "product", "dataset", "purchased", "from cache"];
  const rows = report.rows.map((row) => [row.member, row.product, row.dataset, row.purchased, row.fromCache]);
  const datasetRows = report.totals.datasets.map((total) => [
    "all members",
    total.product,
    total.dataset,
    total.purchased,
    total.fromCache,
  ]);
  say(
    io.stdout,
    [
      `Requests in ${report.month} (UTC). purchased: data requests the service charged; from cache: answers served without a charge.`,
      "",
      textTable(header, rows),
      "",
      "Totals per dataset",
      textTable(header, datasetRows),
      "",
      `Overall: ${report.totals.purchased} purchased, ${report.totals.fromCache} from cache.`,
    ].join("\n"),
  );
}

export function usageCommand(argv: string[], io: CommandIo): Promise<number> {
  return runCommand(io, USAGE_USAGE, async () => {
    const { values, positionals } = parsedOrUsageError(() =>
      parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }),
    );
    if (positionals.length > 0)
      throw new UsageError(`usage takes no positional arguments (given: ${positionals.join(" ")}).`);
    const month = values.month ?? monthOf(new Date((io.now ?? Date.now)()));
    if (parseMonth(month) === null)
      throw new UsageError(`--month takes a month as YYYY-MM, e.g. 2026-11 (not "${month}").`);
    return withStore(requireDatabase(values.database), io, async (store) => {
      let rows: UsageRow[];
      try {
        rows = await store.audit.usage(month);
      } catch (error) {
        say(io.stderr, `usage failed: ${messageOf(error)}`);
        return EXIT_FAILED;
      }
      const report = usageReport(month, rows);
      if (values.json === true) say(io.stdout, JSON.stringify(report, null, 2));
      else printReport(report, io);
      return EXIT_OK;
    });
  });
}
