// Which call groups (product + data type + operation) used more calls than their bound,
// from the call log: the evidence behind a calls / bound ratio above 1.00.
import type { Bound } from "./bounds";
import type { CatalogSeries } from "./catalog";
import type { LoggedCall } from "./call-log";

export interface GroupExcess {
  group: string;
  /** Calls sent, refused ones included (the service counts them). */
  calls: number;
  bound: number;
  /** Calls the service refused (429, 503) and the engine sent again. */
  refused: number;
  /** Codes per answered call, in the order sent. */
  sizes: number[];
  /** Codes in more than one answered call (one series in several currencies/units). */
  repeatedCodes: number;
}

export function groupExcess(
  calls: readonly LoggedCall[],
  bound: Bound,
  byCode: ReadonlyMap<string, CatalogSeries>,
): GroupExcess[] {
  const sent = new Map<string, LoggedCall[]>();
  for (const call of calls) {
    if (call.operation !== "series_hist" && call.operation !== "series_values") continue;
    const dataType = byCode.get(call.codes[0] ?? "")?.dataType ?? "unknown";
    const group = `${call.product}/${dataType}/${call.operation}`;
    sent.set(group, [...(sent.get(group) ?? []), call]);
  }
  const bounds = new Map(
    bound.groups.map((entry) => [`${entry.product}/${entry.dataType}/${entry.operation}`, entry.calls]),
  );
  const excess: GroupExcess[] = [];
  for (const [group, groupCalls] of sent) {
    const limit = bounds.get(group) ?? 0;
    if (groupCalls.length <= limit) continue;
    const answered = groupCalls.filter((call) => call.status === 200);
    const seen = new Map<string, number>();
    for (const call of answered) for (const code of call.codes) seen.set(code, (seen.get(code) ?? 0) + 1);
    excess.push({
      group,
      calls: groupCalls.length,
      bound: limit,
      refused: groupCalls.length - answered.length,
      sizes: answered.map((call) => call.codes.length),
      repeatedCodes: [...seen.values()].filter((count) => count > 1).length,
    });
  }
  return excess.sort((left, right) => left.group.localeCompare(right.group));
}

export function describeGroupExcess(excess: readonly GroupExcess[]): string {
  return `over the bound: ${excess
    .map(
      (entry) =>
        `${entry.group} ${entry.calls} calls vs ${entry.bound}${entry.refused > 0 ? `, ${entry.refused} of them refused and sent again` : ""} (codes per answered call ${entry.sizes.join(",")}; ${entry.repeatedCodes} codes in more than one call, i.e. asked in several currencies/units)`,
    )
    .join("; ")}`;
}
