// W7's section of the results in BENCHMARKS.md: one table of its own figures (the calls, data
// requests and time of its cold run are rows of the common tables).
import { median } from "./memory-budget";
import { formatRatio } from "./ratios";
import type { WorkloadResult } from "./results";
import type { GatewayLoad, TeamFigures, WarmComparison } from "./team-results";

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

function warmRow<Entry extends WarmComparison>(
  label: string,
  warm: readonly Entry[],
  gateway: (entry: Entry) => number,
  local: (entry: Entry) => number,
): string[] {
  if (warm.length === 0) return [label, "not measured"];
  const through = median(warm.map(gateway));
  const own = median(warm.map(local));
  return [
    label,
    `${ms(through)} / ${ms(own)} = ${formatRatio(through, own)} (median of ${warm.length}: ${warm.map((entry) => formatRatio(gateway(entry), local(entry))).join(", ")})`,
  ];
}

/**
 * The least a pass via the gateway adds: the same answers fetched and parsed with no engine,
 * against the whole pass from the saved cache (at most 0.2 of it leaves room for 1.2 x).
 */
function answersAloneRow(warm: readonly WarmComparison[]): string[] {
  const label =
    "Information: the same data calls alone (new process, no engine: sent at once, answers parsed) / series from the saved cache";
  const measured = warm.filter(
    (entry): entry is WarmComparison & { answersAloneMs: number } => entry.answersAloneMs !== undefined,
  );
  if (measured.length === 0) return [label, "not measured"];
  const characters = median(measured.map((entry) => entry.answersAloneCharacters ?? 0));
  const [, value] = warmRow(
    label,
    measured,
    (entry) => entry.answersAloneMs,
    (entry) => entry.fromSavedCachePassMs,
  );
  return [label, `${value ?? ""}; ${(characters / 1000).toFixed(0)} KB of answers a member`];
}

function loadRow(load: GatewayLoad): string[] {
  const cpu =
    load.gatewayCpuMsPerRequest === null
      ? ""
      : `, gateway CPU ${load.gatewayCpuMsPerRequest.toFixed(2)} ms a request`;
  return [
    `From the store, ${load.store}: requests/s; p50 / p99 latency`,
    `${load.perSecond.toFixed(0)}/s; ${load.p50Ms.toFixed(1)} / ${load.p99Ms.toFixed(1)} ms (${load.requests} requests by ${load.concurrency} members at once in ${(load.wallMs / 1000).toFixed(1)} s, ${load.recordsPerRequest.toFixed(1)} series each, ${load.errors} errors, ${load.upstreamDataCalls} upstream data calls${cpu})`,
  ];
}

/** The rows of W7's table (figure, value). */
export function teamRows(result: WorkloadResult, team: TeamFigures): string[][] {
  const passes = team.memberPassMs;
  const sent = team.memberCalls.series_values + team.memberCalls.series_hist;
  const upstream = result.calls.series_values + result.calls.series_hist;
  const bound = result.callsBound.series_values + result.callsBound.series_hist;
  return [
    [
      "Members x formulas; keys shared by all / own per member",
      `${team.members} x ${team.formulasPerMember}; ${team.sharedKeys} / ${team.ownKeysPerMember.toFixed(1)}`,
    ],
    [
      "Cold, all at once: start to a member's last value, median / slowest",
      passes.length === 0 ? "n/a" : `${ms(median(passes))} / ${ms(Math.max(...passes))}`,
    ],
    [
      "Data calls: members to the gateway / gateway to the service / bound",
      `${sent} / ${upstream} (${team.upstreamRefused} refused for the rate) / ${bound}`,
    ],
    warmRow(
      "Warm pass, new runner holding the catalogs: series via the gateway / series from the saved cache",
      team.warm,
      (entry) => entry.fromCatalogsPassMs,
      (entry) => entry.fromSavedCachePassMs,
    ),
    answersAloneRow(team.warm),
    warmRow(
      "Information: warm pass, empty engine via the gateway / second pass from the engine's cache",
      team.warm,
      (entry) => entry.gatewayPassMs,
      (entry) => entry.localPassMs,
    ),
    warmRow(
      "Information: new runner, sign-in + pass, empty engine via the gateway / from the saved cache",
      team.warm,
      (entry) => entry.gatewaySessionMs,
      (entry) => entry.localSessionMs,
    ),
    ...team.loads.map(loadRow),
    ...team.skipped.map((note) => ["Not measured", note]),
  ];
}

/** Markdown lines of W7's results; a single line when W7 was not run. */
export function renderTeam(workloads: readonly WorkloadResult[]): string[] {
  const result = workloads.find((entry) => entry.team !== undefined);
  const team = result?.team;
  if (result === undefined || team === undefined) return ["W7 was not run."];
  const { machine } = team;
  const row = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;
  return [
    `Measured ${team.measuredAt} in ${(team.durationMs / 1000).toFixed(1)} s (load average ${machine.loadAverage.join(" / ")} at the end).`,
    "",
    row(["Figure", "Value"]),
    row(["---", "---"]),
    ...teamRows(result, team).map(row),
  ];
}
