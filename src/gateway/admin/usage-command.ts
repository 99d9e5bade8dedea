// `usage`: what each member's requests cost in an allowance period (data requests the upstream
// charged; the period runs from one monthly release to the next, as the service's allowance
// does: members/allowance-period.ts) and what the cache saved (answers served without a
// charge), per product and dataset, with totals.
import { parseArgs } from "node:util";
import type { UsageRow } from "../store/gateway-store";
import { allowancePeriodAt, allowancePeriodNamed, type AllowancePeriod } from "../members/allowance-period";
import {
  DEFAULT_RELEASE_BUSINESS_DAY,
  RELEASE_DAY_EXPECTED,
  releaseBusinessDayOf,
} from "../members/release-day";
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

export const USAGE_USAGE = "usage [--month YYYY-MM] [--release-day N] [--json] --database SPEC";

const OPTIONS = {
  database: { type: "string" },
  month: { type: "string" },
  "release-day": { type: "string" },
  json: { type: "boolean" },
} as const;

export interface DatasetTotal {
  product: string;
  dataset: string;
  purchased: number;
  fromCache: number;
}

export interface UsageReport {
  /** The allowance period's name: the month of the release that opens it. */
  month: string;
  /** The release's business day the period was counted by. */
  releaseDay: number;
  /** The period, from its release to the next (ISO instants). */
  from: string;
  until: string;
  rows: UsageRow[];
  totals: { datasets: DatasetTotal[]; purchased: number; fromCache: number };
}

export function usageReport(period: AllowancePeriod, releaseDay: number, rows: UsageRow[]): UsageReport {
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
    month: period.name,
    releaseDay,
    from: period.start.toISOString(),
    until: period.end.toISOString(),
    rows,
    totals: {
      datasets: sorted,
      purchased: rows.reduce((sum, row) => sum + row.purchased, 0),
      fromCache: rows.reduce((sum, row) => sum + row.fromCache, 0),
    },
  };
}

/** "allowance period 2026-11, from its release at 2026-11-04 12:00 UTC to the next at 2026-12-03 12:00 UTC" */
function periodWords(report: UsageReport): string {
  const instant = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return (
    `allowance period ${report.month}, from its release (business day ${report.releaseDay}) at ${instant(report.from)} ` +
    `to the next at ${instant(report.until)}`
  );
}

function printReport(report: UsageReport, io: CommandIo): void {
  if (report.rows.length === 0) {
    say(io.stdout, `No requests in ${periodWords(report)}.`);
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
      `Requests in ${periodWords(report)}. purchased: data requests the service charged; from cache: answers served without a charge.`,
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
    const given =
      values["release-day"] === undefined ? undefined : releaseBusinessDayOf(values["release-day"]);
    if (given === null) throw new UsageError(`${RELEASE_DAY_EXPECTED} (not "${values["release-day"]}").`);
    // The month is checked before the database is opened: a wrong one is a usage error.
    if (
      values.month !== undefined &&
      allowancePeriodNamed(values.month, DEFAULT_RELEASE_BUSINESS_DAY) === null
    )
      throw new UsageError(`--month takes a month as YYYY-MM, e.g. 2026-11 (not "${values.month}").`);
    return withStore(requireDatabase(values.database), io, async (store) => {
      let rows: UsageRow[];
      let period: AllowancePeriod | null;
      let releaseDay: number;
      try {
        // Without --release-day, the one the gateway keeps for its budgets.
        releaseDay = given ?? (await store.releaseDay.get()) ?? DEFAULT_RELEASE_BUSINESS_DAY;
        period =
          values.month === undefined
            ? allowancePeriodAt(new Date((io.now ?? Date.now)()), releaseDay)
            : allowancePeriodNamed(values.month, releaseDay);
        if (period === null) throw new Error(`no allowance period ${values.month}`);
        rows = await store.audit.usage(period);
      } catch (error) {
        say(io.stderr, `usage failed: ${messageOf(error)}`);
        return EXIT_FAILED;
      }
      const report = usageReport(period, releaseDay, rows);
      if (values.json === true) say(io.stdout, JSON.stringify(report, null, 2));
      else printReport(report, io);
      return EXIT_OK;
    });
  });
}
