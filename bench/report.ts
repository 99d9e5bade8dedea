// Writes the results as Markdown tables for BENCHMARKS.md, between two markers so the
// hand-written explanations around them survive every run.
import { OPERATIONS, type CallCounts } from "./bounds";
import { renderMemory } from "./memory-report";
import { renderTeam } from "./team-report";
import { formatRatio } from "./ratios";
import {
  dataCalls,
  type AddinFigures,
  type BenchResults,
  type NaiveFigures,
  type ScaleFigures,
  type TargetCheck,
  type WorkloadResult,
} from "./results";

export const START_MARKER = "<!-- bench:results:start -->";
export const END_MARKER = "<!-- bench:results:end -->";

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.map(String).join(" | ")} |`;
}

function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [row(header), row(header.map(() => "---")), ...rows.map(row)].join("\n");
}

function seconds(ms: number | null): string {
  return ms === null ? "n/a" : (ms / 1000).toFixed(2);
}

function naiveCalls(naive: NaiveFigures | null): number | null {
  return naive === null ? null : naive.calls.series_info + dataCalls(naive.calls);
}

function callCell(calls: CallCounts, bound: CallCounts, operation: keyof CallCounts): string {
  return `${calls[operation]} / ${bound[operation]}`;
}

/** The spec shape's rows are in the data requests table only (what users pay for). */
const realShape = (result: WorkloadResult): boolean => !result.id.startsWith("spec ");

function callsTable(workloads: readonly WorkloadResult[]): string {
  return table(
    [
      "Workload",
      ...OPERATIONS.map((operation) => `${operation} (PCD / bound)`),
      "data calls / bound",
      "naive data+info calls",
      "PCD / naive",
    ],
    workloads.filter(realShape).map((result) => {
      const pcd = dataCalls(result.calls);
      const naive = naiveCalls(result.naive);
      return [
        result.id,
        ...OPERATIONS.map((operation) => callCell(result.calls, result.callsBound, operation)),
        `${pcd} / ${dataCalls(result.callsBound)} = ${formatRatio(pcd, dataCalls(result.callsBound))}`,
        naive ?? "n/a",
        formatRatio(pcd + result.calls.series_info, naive),
      ];
    }),
  );
}

function requestsTable(workloads: readonly WorkloadResult[]): string {
  return table(
    [
      "Workload",
      "Formulas",
      "Distinct keys",
      "Data requests (PCD)",
      "Bound",
      "PCD / bound",
      "Naive",
      "PCD / naive",
    ],
    workloads.map((result) => [
      result.id,
      result.formulas,
      result.distinctKeys,
      result.dataRequests,
      result.dataRequestsBound,
      formatRatio(result.dataRequests, result.dataRequestsBound),
      result.naive?.dataRequests ?? "n/a",
      formatRatio(result.dataRequests, result.naive?.dataRequests ?? null),
    ]),
  );
}

/** The real shape's workloads but W5, whose sizes have a table of their own. */
function timeTable(workloads: readonly WorkloadResult[]): string {
  const shown = workloads.filter((result) => result.scale === undefined && realShape(result));
  return table(
    [
      "Workload",
      "Wall s (PCD)",
      "Rate-limit bound s",
      "PCD / bound",
      "Naive s",
      "PCD / naive",
      "CPU s",
      "CPU PCD / naive",
      "Cached recalc ms per formula",
      "CPU ms per cached formula",
      "Peak RSS MiB (growth)",
      "Cell errors",
    ],
    shown.map((result) => [
      result.id,
      seconds(result.wallMs),
      seconds(result.rateLimitBoundMs),
      formatRatio(result.wallMs, result.rateLimitBoundMs),
      seconds(result.naive?.wallMs ?? null),
      formatRatio(result.wallMs, result.naive?.wallMs ?? null),
      seconds(result.cpuMs),
      formatRatio(result.cpuMs, result.naive?.cpuMs ?? null),
      result.warmMsPerFormula === null ? "n/a" : result.warmMsPerFormula.toFixed(3),
      result.cpuMsPerCachedFormula === null ? "n/a" : result.cpuMsPerCachedFormula.toFixed(3),
      result.peakRssMiB === null
        ? "n/a"
        : `${result.peakRssMiB.toFixed(0)}${result.rssGrowthMiB === null ? "" : ` (+${result.rssGrowthMiB.toFixed(0)})`}`,
      result.cellErrors,
    ]),
  );
}

function scaleTable(workloads: readonly WorkloadResult[]): string {
  const scale = workloads.filter((result) => result.scale !== undefined);
  if (scale.length === 0) return "W5 was not run.";
  return table(
    [
      "Formulas",
      "Cold s",
      "Bound s",
      "Cold / bound",
      "Cold CPU ms per formula",
      "Cold GC s",
      "Warm ms per formula",
      "Warm CPU ms per formula",
      "Warm GC ms",
      "Peak RSS MiB",
      "RSS growth MiB per 1,000 formulas",
    ],
    scale.map((result) => {
      const figures = result.scale as ScaleFigures;
      return [
        result.formulas,
        seconds(result.wallMs),
        seconds(result.rateLimitBoundMs),
        formatRatio(result.wallMs, result.rateLimitBoundMs),
        (figures.coldCpuMs / result.formulas).toFixed(3),
        seconds(figures.coldGcMs),
        (figures.warmWallMs / result.formulas).toFixed(4),
        (figures.warmCpuMs / result.formulas).toFixed(4),
        figures.warmGcMs.toFixed(0),
        result.peakRssMiB === null ? "n/a" : result.peakRssMiB.toFixed(0),
        figures.rssGrowthMiBPer1000.toFixed(1),
      ];
    }),
  );
}

/** The largest W5 size's profiles (every size's are in results.json). */
function profileLines(workloads: readonly WorkloadResult[]): string[] {
  const lines: string[] = [];
  const profiled = workloads.filter(
    (result) =>
      result.scale !== undefined && result.scale.coldProfile.length + result.scale.warmProfile.length > 0,
  );
  for (const result of profiled.slice(-1)) {
    const figures = result.scale;
    if (figures === undefined) continue;
    for (const [pass, entries] of [
      ["cold", figures.coldProfile],
      ["warm", figures.warmProfile],
    ] as const) {
      const top = entries.map(
        (entry) => `${entry.name} ${entry.selfMs.toFixed(0)} ms (${entry.percent.toFixed(1)} %)`,
      );
      lines.push(`- ${result.formulas} formulas, ${pass}: ${top.join("; ")}`);
    }
  }
  return lines;
}

function kib(bytes: number | null): string {
  return bytes === null ? "not measured" : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The functions runtime's largest modules: minified size and share of the runtime at start. */
function modulesTable(addin: AddinFigures): string {
  const total = addin.functionsMinifiedBytes;
  return [
    `Minified bytes of functions.js and runtime.js credited to the source they came from (production source maps; a node_modules package counts as one); ${total === null ? "" : `${kib(total)} minified in all, `}${kib(addin.functionsGzipBytes)} gzip.`,
    "",
    table(
      ["Module", "Minified", "Share"],
      addin.functionsModules.map((module) => [
        module.name,
        kib(module.bytes),
        total === null || total === 0 ? "n/a" : `${((module.bytes / total) * 100).toFixed(1)} %`,
      ]),
    ),
  ].join("\n");
}

/**
 * The targets table's rows: a workload whose targets are all met is one row (its targets and
 * values joined by "; "), so the page stays short; a workload with a miss shows each target.
 */
export function targetRows(targets: readonly TargetCheck[]): string[][] {
  const byWorkload = new Map<string, TargetCheck[]>();
  for (const check of targets)
    byWorkload.set(check.workload, [...(byWorkload.get(check.workload) ?? []), check]);
  return [...byWorkload].flatMap(([workload, checks]) =>
    checks.every((check) => check.met)
      ? [
          [
            workload,
            checks.map((check) => check.target).join("; "),
            checks.map((check) => check.value).join("; "),
            "yes",
          ],
        ]
      : checks.map((check) => [workload, check.target, check.value, check.met ? "yes" : "**no**"]),
  );
}

export function renderResults(results: BenchResults): string {
  const { machine, settings } = results;
  const naive = results.workloads.find((result) => result.naive !== null)?.naive ?? null;
  // The notes (when each call was answered, codes per call, where a call went over its bound)
  // run to thousands of characters a line: they stay in results.json, where tools read them.
  const hasNotes = results.workloads.some((result) => result.notes.length > 0);
  const lines = [
    START_MARKER,
    `Generated ${results.generatedAt} by \`npm run bench\` in ${seconds(results.durationMs)} s.`,
    "",
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB memory, Node ${machine.node}, ${machine.platform}; load average ${machine.loadAverage.join(" / ")} (1 / 5 / 15 min) at the end of the run.`,
    `Service: the emulator in its own process on 127.0.0.1, ${settings.latencyMs} ms per call plus ${settings.latencyPerCodeMs} ms per code, 10 requests/second per operation, seed ${settings.seed}.`,
    naive === null
      ? "Naive baseline: not run."
      : `Naive baseline: run on a sample of ${naive.sampled} of ${naive.cells} cells and scaled linearly to the whole workbook (calls, data requests and time).`,
    "",
    "### HTTP calls per operation (service's count / lower bound)",
    "",
    callsTable(results.workloads),
    "",
    "### Data requests",
    "",
    requestsTable(results.workloads),
    "",
    "### Time and resources",
    "",
    "W5's sizes are in their own table below; the spec shape's rows are in the data requests table only.",
    "",
    timeTable(results.workloads),
    "",
    "### W5: scale (cold pass, then a warm recalculation in the same process)",
    "",
    scaleTable(results.workloads),
    ...(profileLines(results.workloads).length > 0
      ? [
          "",
          "Top CPU self time per pass at the largest size (inspector sampling profiler, busy time only; percent of the sampled busy time; every size's in results.json):",
          "",
          ...profileLines(results.workloads),
        ]
      : []),
    "",
    "### W7: a team through the gateway (cold all at once, warm members, the gateway from its store)",
    "",
    ...renderTeam(results.workloads),
    "",
    "### The add-in",
    "",
    results.addin === null
      ? "Not measured in this run."
      : table(
          ["Figure", "Value", "Note"],
          [
            [
              "Functions runtime bundle at start (gzip)",
              kib(results.addin.functionsGzipBytes),
              results.addin.bundleFiles.functions.join(", ") || results.addin.bundleNote,
            ],
            [
              "Functions runtime, chunks loaded on first use (gzip)",
              kib(results.addin.functionsLazyGzipBytes),
              results.addin.bundleFiles.functionsLazy.join(", ") || "none",
            ],
            [
              "Task pane bundle (gzip)",
              kib(results.addin.taskpaneGzipBytes),
              results.addin.bundleFiles.taskpane.join(", ") || results.addin.bundleNote,
            ],
            [
              "Page load to functions registered (headless Chromium)",
              results.addin.startupMs === null ? "not measured" : `${results.addin.startupMs.toFixed(0)} ms`,
              results.addin.startupNote,
            ],
          ],
        ),
    ...(results.addin === null || results.addin.functionsModules.length === 0
      ? []
      : ["", "### Functions runtime: largest modules", "", modulesTable(results.addin)]),
    "",
    "### Memory",
    "",
    renderMemory(results.memory),
    "",
    "### Targets",
    "",
    table(["Workload", "Target", "Value", "Met"], targetRows(results.targets)),
    ...(results.failures.length > 0
      ? [
          "",
          "### Workloads that failed in this run",
          "",
          ...results.failures.map((failure) => `- ${failure.workload}: ${failure.error}`),
        ]
      : []),
    ...(hasNotes
      ? [
          "",
          "Each workload's notes (when its calls were answered, how many codes each call held, where a call went over its bound) are in `bench/results.json`.",
        ]
      : []),
    END_MARKER,
  ];
  return lines.join("\n");
}

/** Replaces the marked section of a document (or appends one when there is none). */
export function spliceResults(document: string, section: string): string {
  const start = document.indexOf(START_MARKER);
  const end = document.indexOf(END_MARKER);
  if (start === -1 || end === -1 || end < start) {
    return `${document.trimEnd()}\n\n${section}\n`;
  }
  return `${document.slice(0, start)}${section}${document.slice(end + END_MARKER.length)}`;
}
