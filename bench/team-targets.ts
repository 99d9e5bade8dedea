// W7's targets beyond the bounds every cold workload has (targets.ts): a member's warm
// recalculation with its series from the gateway within WARM_GATEWAY_FACTOR of the same member
// with its series in a local cache (both runners start holding the catalogs: team-results.ts),
// and no upstream data call while every answer is kept. The empty-engine comparisons are
// information rows of the report (team-report.ts), not targets: they also time the catalogs.
import { median } from "./memory-budget";
import { formatRatio, ratio } from "./ratios";
import type { TargetCheck, WorkloadResult } from "./results";
import type { WarmComparison } from "./team-results";

export const WARM_GATEWAY_FACTOR = 1.2;

function warmCheck(
  workload: string,
  target: string,
  warm: readonly WarmComparison[],
  gateway: (entry: WarmComparison) => number,
  local: (entry: WarmComparison) => number,
): TargetCheck {
  if (warm.length === 0) return { workload, target, value: "not measured", met: false };
  const through = median(warm.map(gateway));
  const own = median(warm.map(local));
  const value = ratio(through, own);
  return {
    workload,
    target,
    value: `${through.toFixed(0)} ms / ${own.toFixed(0)} ms = ${formatRatio(through, own)} (median of ${warm.length} members)`,
    met: value !== null && value <= WARM_GATEWAY_FACTOR,
  };
}

export function teamChecks(result: WorkloadResult): TargetCheck[] {
  const team = result.team;
  if (team === undefined) return [];
  const upstream =
    team.warmUpstreamDataCalls + team.loads.reduce((sum, load) => sum + load.upstreamDataCalls, 0);
  return [
    warmCheck(
      result.id,
      `new runner holding the catalogs, pass: series via the warm gateway <= ${WARM_GATEWAY_FACTOR} x series from the saved cache`,
      team.warm,
      (entry) => entry.fromCatalogsPassMs,
      (entry) => entry.fromSavedCachePassMs,
    ),
    {
      workload: result.id,
      target: "no upstream data call while every answer is kept (warm members, load)",
      value: `${upstream} calls`,
      met: upstream === 0 && team.warm.length > 0,
    },
  ];
}
