// The shape of bench/results.json: every figure with its bound and its naive baseline.
import type { CallCounts } from "./bounds";
import type { ModuleSize } from "./bundle-analysis";
import type { ProfileEntry } from "./cpu-profile";
import type { MachineDescription } from "./machine";
import type { MemoryFigure } from "./memory-budget";
import type { TeamFigures } from "./team-results";
import type { WorkbookComposition } from "./workloads";

export interface NaiveFigures {
  /** Cells the naive client actually ran; figures are scaled linearly from them to `cells`. */
  sampled: number;
  cells: number;
  calls: CallCounts;
  dataRequests: number;
  wallMs: number;
  /** CPU time of the naive client (the benchmark process), scaled like the rest. */
  cpuMs: number;
  /** Sample cells that ended without data. */
  failedCells: number;
}

export interface WorkloadResult {
  id: string;
  title: string;
  formulas: number;
  distinctKeys: number;
  composition: WorkbookComposition | null;
  /** The service's view (emulator /__admin/stats). */
  calls: CallCounts;
  /** The runner's own per-operation counts (cross-check), null when not reported. */
  runnerCalls: CallCounts | null;
  callsBound: CallCounts;
  dataRequests: number;
  dataRequestsBound: number;
  wallMs: number;
  rateLimitBoundMs: number;
  /** CPU time of a recalculation served from cache, per formula (warm passes only). */
  cpuMsPerCachedFormula: number | null;
  /** Wall time per formula of a recalculation served from cache (W5). */
  warmMsPerFormula: number | null;
  peakRssMiB: number | null;
  /** Peak resident memory above the process's level when the workload started. */
  rssGrowthMiB: number | null;
  /** CPU time of the benchmark process during the workload (the emulator runs elsewhere). */
  cpuMs: number | null;
  /** Cells that ended with an error value (they count: a benchmark of failing cells proves nothing). */
  cellErrors: number;
  naive: NaiveFigures | null;
  /** W5 only: the cold and warm passes in detail. */
  scale?: ScaleFigures;
  /** W7 only: the team's warm members and the gateway's load (team-results.ts). */
  team?: TeamFigures;
  notes: string[];
}

/** W5's per-size figures: both passes' CPU, GC and the functions with the most self time. */
export interface ScaleFigures {
  coldCpuMs: number;
  coldGcMs: number;
  warmWallMs: number;
  warmCpuMs: number;
  warmGcMs: number;
  /** Peak resident memory above the level when the size started, per 1,000 formulas. */
  rssGrowthMiBPer1000: number;
  /** Top self-time entries of the cold and the warm pass (empty when not profiled). */
  coldProfile: ProfileEntry[];
  warmProfile: ProfileEntry[];
}

export interface TargetCheck {
  workload: string;
  target: string;
  value: string;
  met: boolean;
}

export interface AddinFigures {
  /** The functions runtime as Excel loads it at start (its entry's initial chunks). */
  functionsGzipBytes: number | null;
  /** The chunks the functions runtime loads later, on first use (none: 0). */
  functionsLazyGzipBytes: number | null;
  taskpaneGzipBytes: number | null;
  bundleFiles: { functions: string[]; functionsLazy: string[]; taskpane: string[] };
  /** The largest modules of the functions runtime at start, by minified bytes (a package as one). */
  functionsModules: ModuleSize[];
  /** All minified bytes of the functions runtime at start (the modules' shares are of this). */
  functionsMinifiedBytes: number | null;
  bundleNote: string;
  startupMs: number | null;
  startupNote: string;
}

export interface BenchSettings {
  seed: number;
  latencyMs: number;
  latencyPerCodeMs: number;
  naiveSample: number;
  w1Formulas: number;
  scaleSizes: number[];
  /** The service shape of the targeted workloads (other-shape rows carry their shape in the id). */
  shape?: string;
}

export interface BenchResults {
  generatedAt: string;
  durationMs: number;
  machine: MachineDescription;
  settings: BenchSettings;
  workloads: WorkloadResult[];
  addin: AddinFigures | null;
  targets: TargetCheck[];
  /** The memory budgets (memory-budgets.ts): bytes a unit keeps alive against its bound; absent in older results. */
  memory?: MemoryFigure[];
  /** Workloads that could not run to the end, with the reason (their figures are missing). */
  failures: { workload: string; error: string }[];
}

export function dataCalls(calls: CallCounts): number {
  return calls.series_values + calls.series_hist;
}
