// Workbooks that show what buying by need saves: a latest-value dashboard
// (PCD.VALUE(code) only), recent-range tables (PCD.VALUES from a month inside the last
// 13) and full-history tables (PCD.VALUES(code)), and the three mixed. Each runs cold in
// its own engine session and is set beside its need-based lower bound (bounds.ts).
import type { CatalogSeries } from "./catalog";
import { LATEST, type Reads } from "./needs";
import { SeededRandom } from "./prng";
import { formulaText, monthsBefore, type BenchFormula, type Workbook } from "./workloads";

export type NeedWorkbookKind = "dashboard" | "recent" | "history" | "mixed" | "toolkit";

export const NEED_WORKBOOKS: readonly { kind: NeedWorkbookKind; title: string }[] = [
  { kind: "dashboard", title: "Latest-value dashboard: PCD.VALUE(code) only" },
  { kind: "recent", title: "Recent-range tables: PCD.VALUES from a month inside the last 13" },
  { kind: "history", title: "Full-history tables: PCD.VALUES(code)" },
  { kind: "mixed", title: "Mixed: latest values, recent ranges and full-history tables" },
  {
    kind: "toolkit",
    title: "Toolkit and VALUES cells on the same keys: ESCALATE, CHANGE, AVERAGE beside VALUES tables",
  },
];

function month(series: CatalogSeries, back: number): string {
  const [year, number] = monthsBefore(series.lastAvailableFinal, back);
  return `${year}-${String(number).padStart(2, "0")}`;
}

function cell(series: CatalogSeries, text: string, reads: Reads, kind: "VALUE" | "VALUES"): BenchFormula {
  return { text, kind, code: series.code, product: series.product, currency: null, unit: null, reads };
}

function latest(series: CatalogSeries): BenchFormula {
  return cell(series, formulaText("VALUE", [`"${series.code}"`]), LATEST, "VALUE");
}

function recent(series: CatalogSeries, random: SeededRandom): BenchFormula {
  const start = month(series, random.below(13));
  return cell(
    series,
    formulaText("VALUES", [`"${series.code}"`, null, null, `"${start}"`]),
    { from: start, to: null },
    "VALUES",
  );
}

/**
 * A VALUES table and toolkit cells on one key: recent months only for two series in three,
 * a 2019 escalation (older months) for the third.
 */
function toolkit(series: CatalogSeries, index: number, random: SeededRandom): BenchFormula[] {
  const code = `"${series.code}"`;
  const recentStart = month(series, 6 + random.below(6));
  const older = index % 3 === 2;
  const from = older ? "2019-01" : month(series, 3 + random.below(9));
  const cells: BenchFormula[] = [
    cell(
      series,
      formulaText("VALUES", [code, null, null, `"${recentStart}"`]),
      { from: recentStart, to: null },
      "VALUES",
    ),
  ];
  const escalate = formulaText("ESCALATE", ["1000", code, `"${from}"`]);
  // Toolkit cells count as VALUE cells in the composition (one number each).
  cells.push(cell(series, escalate, { from, to: null }, "VALUE"));
  const change = formulaText("CHANGE", [code, `"${from}"`]);
  cells.push(cell(series, change, { from, to: null }, "VALUE"));
  const start = month(series, 5);
  const end = month(series, 0);
  const average = formulaText("AVERAGE", [code, `"${start}"`, `"${end}"`]);
  cells.push(cell(series, average, { from: start, to: end }, "VALUE"));
  return cells;
}

function history(series: CatalogSeries): BenchFormula {
  return cell(series, formulaText("VALUES", [`"${series.code}"`]), { from: null, to: null }, "VALUES");
}

/**
 * `series` distinct current series (latest final known), each shown by 1 to 3 cells of the
 * kind (a dashboard repeats its codes); the mixed book gives each series one kind.
 */
export function generateNeedWorkbook(
  catalog: readonly CatalogSeries[],
  kind: NeedWorkbookKind,
  series: number,
  seed: number,
): Workbook {
  const random = new SeededRandom(seed);
  // Current series only: a discontinued series has no month of 2019 or recent months to read.
  const newest = catalog.reduce(
    (max, entry) => (entry.lastAvailableFinal > max ? entry.lastAvailableFinal : max),
    "",
  );
  const recentEnough = `${Number(newest.slice(0, 4)) - 1}${newest.slice(4)}`;
  const current = random
    .shuffled(
      catalog.filter((entry) => entry.lastAvailableFinal !== "" && entry.lastAvailableFinal >= recentEnough),
    )
    .slice(0, series);
  const formulas: BenchFormula[] = [];
  current.forEach((entry, index) => {
    if (kind === "toolkit") {
      formulas.push(...toolkit(entry, index, random));
      return;
    }
    const copies = 1 + random.below(3);
    const pick = kind === "mixed" ? (["dashboard", "recent", "history"] as const)[index % 3] : kind;
    for (let copy = 0; copy < copies; copy += 1) {
      if (pick === "dashboard") formulas.push(latest(entry));
      else if (pick === "recent") formulas.push(recent(entry, random));
      else formulas.push(history(entry));
    }
  });
  const shuffled = random.shuffled(formulas);
  const byProduct = { energy_price: 0, commodity_price: 0, industry_economics: 0 };
  for (const formula of shuffled) byProduct[formula.product] += 1;
  return {
    formulas: shuffled,
    composition: {
      formulas: shuffled.length,
      byKind: {
        VALUES: shuffled.filter((formula) => formula.kind === "VALUES").length,
        VALUE: shuffled.filter((formula) => formula.kind === "VALUE").length,
        INFO: 0,
      },
      byProduct,
      withOptions: 0,
      spelledDefault: 0,
      duplicates: shuffled.length - current.length,
    },
  };
}
