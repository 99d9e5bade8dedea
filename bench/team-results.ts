// W7's own figures in bench/results.json (beside the calls and data requests every workload
// has), and how a W7 measured alone (`--only-team`) joins an earlier run's results.
import type { CallCounts } from "./bounds";
import type { MachineDescription } from "./machine";
import type { BenchResults, TargetCheck, WorkloadResult } from "./results";

/**
 * One member's warm recalculation, measured in new runner processes after the team's cold
 * run. The target's comparison: two runners that both start from a cache file holding the
 * catalogs (Series Info), as a member's engine normally does; "from catalogs" holds nothing
 * else, so its series come from the warm gateway, "from the saved cache" is the file the
 * member's cold run saved, series included. Besides, for information: a runner with empty
 * storage against the warm gateway (catalogs and series over HTTP; its second pass is served
 * by the engine's own cache). Sessions are sign-in plus the first pass (loading and saving the
 * cache file excluded).
 */
export interface WarmComparison {
  member: string;
  formulas: number;
  /** First pass of a runner started from the catalogs only: every series from the gateway. */
  fromCatalogsPassMs: number;
  /** First pass of a runner started from the member's saved cache: every series local. */
  fromSavedCachePassMs: number;
  /** Data calls the runner started from the catalogs sent the gateway. */
  fromCatalogsDataCalls: number;
  /**
   * Those data calls sent again all at once by a new process with no engine, each answer read
   * and parsed (team-answers-alone-run.ts): the least a pass via the gateway adds. Absent in
   * results measured before it was.
   */
  answersAloneMs?: number;
  /** Characters of those answers, all together. */
  answersAloneCharacters?: number;
  /** First pass of the empty engine: every answer from the gateway's store. */
  gatewayPassMs: number;
  /** Second pass in the same process: the engine's own cache. */
  localPassMs: number;
  /** Sign-in and first pass of the empty engine against the warm gateway. */
  gatewaySessionMs: number;
  /** Sign-in and first pass of the engine started from the member's saved cache. */
  localSessionMs: number;
  /** Data calls the member's empty engine sent to the gateway. */
  gatewayDataCalls: number;
  cellErrors: number;
}

/** Member requests replayed against a gateway that keeps every answer. */
export interface GatewayLoad {
  /** "PGlite" or "Postgres". */
  store: string;
  /** Requests in flight at once (one loop per member). */
  concurrency: number;
  requests: number;
  /** Answers other than 200 (or no answer). */
  errors: number;
  wallMs: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Series records per request, on average. */
  recordsPerRequest: number;
  /** CPU time of the gateway's process per request. */
  gatewayCpuMsPerRequest: number | null;
  /** Data calls the gateway sent the service during the load (all answers kept: 0). */
  upstreamDataCalls: number;
}

export interface TeamFigures {
  /** When W7 ran and on what (it may be measured alone, after the rest of the run). */
  measuredAt: string;
  durationMs: number;
  machine: MachineDescription;
  members: number;
  formulasPerMember: number;
  sharedKeys: number;
  ownKeysPerMember: number;
  /** What the members sent the gateway in their cold passes, all together. */
  memberCalls: CallCounts;
  /** The gateway's cold data calls the service refused for the rate (counted, and sent again). */
  upstreamRefused: number;
  /** Cold pass of each member, from the common start to its last value. */
  memberPassMs: number[];
  warm: WarmComparison[];
  /** Data calls the gateway sent the service while the members ran warm (0 when all was kept). */
  warmUpstreamDataCalls: number;
  loads: GatewayLoad[];
  /** Why a store's load was not measured (no Postgres on the machine, ...). */
  skipped: string[];
}

export const TEAM_PREFIX = "W7";

const isTeam = (name: string): boolean => name === TEAM_PREFIX || name.startsWith(`${TEAM_PREFIX} `);

/**
 * An earlier run's results with this W7 in place of its own (`--only-team`): the other
 * workloads, their targets and failures stay as they were measured.
 */
export function withTeam(
  previous: BenchResults,
  team: WorkloadResult[],
  targets: readonly TargetCheck[],
  failures: BenchResults["failures"],
): BenchResults {
  const kept = previous.targets.filter((check) => !isTeam(check.workload));
  // Among the workloads' rows, before the add-in's and the memory budgets'.
  const at = kept.findIndex((check) => check.workload === "Add-in" || check.workload === "Memory");
  const split = at === -1 ? kept.length : at;
  return {
    ...previous,
    workloads: [...previous.workloads.filter((result) => !isTeam(result.id)), ...team],
    targets: [...kept.slice(0, split), ...targets, ...kept.slice(split)],
    failures: [...previous.failures.filter((failure) => !isTeam(failure.workload)), ...failures],
  };
}
