// The month's invariants, each a named check over the walk's record. A check lists every
// step where it broke, with what was seen, and throws once with all of them: the message
// starts with the invariant's name, then one line per broken step.
import type { Operation } from "../../../src/core/model";
import {
  ANNOUNCED_DOWNTIME,
  DOCUMENTED_PROBES,
  MAX_CALLS_PER_OPERATION_PER_HOUR,
  SETTLE_MS,
} from "./month-script";
import type { MonthRecord, Observation } from "./month-walk";
import { classOfMessage, type MessageClass, type ServiceCondition } from "./service-truth";

export type Invariant = (record: MonthRecord) => void;

function check(name: string, broken: string[]): void {
  if (broken.length > 0) throw new Error(`invariant "${name}" broke:\n  ${broken.join("\n  ")}`);
}

function accepted(observation: Observation): ServiceCondition[] {
  return observation.mayStillSay ? [observation.service, observation.mayStillSay] : [observation.service];
}

function cellBreaks(observation: Observation, allowed: readonly MessageClass[]): string[] {
  const broken: string[] = [];
  for (const { formula, output } of observation.cells) {
    if (!("error" in output)) continue;
    const named = classOfMessage(output.error.message);
    // Up, a cell has no cause to show but its own data's; in a state, its message names that state.
    if (named === "data") continue;
    if (allowed.every((state) => state === "up") || !allowed.includes(named)) {
      broken.push(
        `at step "${observation.step}" (${observation.at}, ${observation.kind}), service ${observation.service}: ` +
          `${formula} says ${named === "other" ? "something of no state" : `"${named}"`}: ${output.error.type} ${output.error.message}`,
      );
    }
  }
  return broken;
}

/**
 * What the engine says (session, service state, reachability) is the service's state, and
 * every cell's message names that state (a value is always fine: cached data is kept).
 */
export const serviceStateIsTold: Invariant = (record) => {
  const broken: string[] = [];
  for (const observation of record.observations) {
    if (!accepted(observation).includes(observation.engineSays)) {
      broken.push(
        `at step "${observation.step}" (${observation.at}, ${observation.kind}): the service is ${observation.service}, the engine says ${observation.engineSays}`,
      );
    }
    // Cells that have not caught up yet after the service came back are cellsSettleAfterBack's.
    if (observation.kind === "during") broken.push(...cellBreaks(observation, accepted(observation)));
  }
  // A refresh the service's state stops fails saying that state, and never that cells showing data have none.
  for (const refresh of record.refreshes.filter((r) => r.service !== "up")) {
    const error = refresh.refreshError;
    const where = `at step "${refresh.step}", service ${refresh.service}: Refresh all`;
    if (error === undefined) broken.push(`${where} did not fail`);
    else if (classOfMessage(error) !== refresh.service)
      broken.push(`${where} failed naming another state: ${error}`);
    else if (refresh.cellsHadData && /no cached data/i.test(error)) {
      broken.push(`${where} says there is no cached data while the cells show data: ${error}`);
    }
  }
  check("the engine and the cells tell the service's state", broken);
};

/**
 * The pane offers a refresh for a new release only once the service has published one
 * since the last refresh, and offers it once one is out (unless the step allows that the
 * engine cannot know yet: it calls nothing in the release-day window).
 */
export const refreshOfferIsTrue: Invariant = (record) => {
  const broken = record.observations
    .filter(
      (observation) =>
        (observation.refreshOffered && !observation.releaseSinceRefresh) ||
        (!observation.refreshOffered &&
          observation.releaseSinceRefresh &&
          observation.mayStillSay === undefined),
    )
    .map(
      (observation) =>
        `at step "${observation.step}" (${observation.at}, ${observation.kind}): the engine ${
          observation.refreshOffered ? "offers" : "does not offer"
        } a refresh for a new release; a release ${observation.releaseSinceRefresh ? "came" : "did not come"} out since the last refresh`,
    );
  check("a refresh is offered for a release only once it is published", broken);
};

/**
 * Inside an announced downtime the engine calls nothing but the documented probes, each
 * within its allowance for the previews and refreshes the user asked for in the window.
 */
export const noCallInAnnouncedDowntime: Invariant = (record) => {
  const broken: string[] = [];
  for (const window of ANNOUNCED_DOWNTIME) {
    const from = Date.parse(window.from);
    const to = Date.parse(window.to);
    const inside = (at: number): boolean => at >= from && at < to;
    const actions = record.userActions.filter((action) => inside(action.at)).length;
    const counts = new Map<Operation, number>();
    for (const call of record.calls.filter((c) => inside(c.at))) {
      counts.set(call.operation, (counts.get(call.operation) ?? 0) + 1);
    }
    for (const [operation, count] of counts) {
      const allowed = DOCUMENTED_PROBES.filter(
        (probe) => probe.operation === operation && probe.window === window.kind,
      ).reduce((sum, probe) => sum + probe.perUserAction * actions, 0);
      if (count > allowed) {
        const first = record.calls.find((call) => inside(call.at) && call.operation === operation);
        broken.push(
          `${window.what} (${window.from} to ${window.to}): ${count} ${operation} calls where ${allowed} are documented probes ` +
            `(${actions} previews or refreshes asked for), first at ${new Date(first?.at ?? 0).toISOString()}`,
        );
      }
    }
  }
  check("no call during announced downtime except documented probes", broken);
};

/** No operation is called more than MAX_CALLS_PER_OPERATION_PER_HOUR times in a clock hour. */
export const noCallLoop: Invariant = (record) => {
  const perHour = new Map<string, number>();
  for (const call of record.calls) {
    const hour = new Date(call.at).toISOString().slice(0, 13);
    const key = `${hour}:00Z ${call.operation}`;
    perHour.set(key, (perHour.get(key) ?? 0) + 1);
  }
  const broken = [...perHour]
    .filter(([, n]) => n > MAX_CALLS_PER_OPERATION_PER_HOUR)
    .map(([key, n]) => `${key}: ${n} calls (at most ${MAX_CALLS_PER_OPERATION_PER_HOUR})`);
  check(`at most ${MAX_CALLS_PER_OPERATION_PER_HOUR} calls per operation per hour`, broken);
};

/** Usage (the engine's limits report) is the service's Data Limits after a release and after a refresh. */
export const usageIsDataLimits: Invariant = (record) => {
  const broken: string[] = [];
  for (const reading of record.usage) {
    const where = `at step "${reading.step}", ${reading.when}`;
    if (reading.error !== undefined) broken.push(`${where}: Usage could not be read: ${reading.error}`);
    else if (reading.rows.length === 0) broken.push(`${where}: Usage has no rows`);
    for (const row of reading.rows) {
      if (row.engine !== row.service) {
        broken.push(
          `${where}: ${row.product} / ${row.dataset}: Usage says ${row.engine} left, the service ${String(row.service)}`,
        );
      }
    }
  }
  check("Usage equals the service's Data Limits", broken);
};

/** The cost preview before a refresh is what the refresh then charges, per product and dataset. */
export const previewIsCharge: Invariant = (record) => {
  const broken: string[] = [];
  const text = (counts: ReadonlyArray<{ product: string; dataset: string; requests: number }>): string =>
    counts.map((c) => `${c.product}/${c.dataset} ${c.requests}`).join(", ") || "nothing";
  // A refresh in a downtime charges nothing and is judged by serviceStateIsTold.
  for (const refresh of record.refreshes.filter((r) => r.service === "up")) {
    if (refresh.previewError !== undefined) {
      broken.push(`at step "${refresh.step}": no preview: ${refresh.previewError}`);
    }
    if (refresh.refreshError !== undefined) {
      broken.push(`at step "${refresh.step}": the refresh failed: ${refresh.refreshError}`);
    }
    if (text(refresh.preview) !== text(refresh.charged)) {
      broken.push(
        `at step "${refresh.step}": the preview said ${text(refresh.preview)}; the refresh charged ${text(refresh.charged)}`,
      );
    }
  }
  check("the cost preview equals what the refresh charges", broken);
};

/** The recalculation right after refresh-all makes no data call. */
export const recalculationAfterRefreshIsFree: Invariant = (record) => {
  const broken = record.refreshes
    .filter((refresh) => refresh.recalcDataCalls.length > 0)
    .map(
      (refresh) =>
        `at step "${refresh.step}": ${refresh.recalcDataCalls.length} data calls: ${refresh.recalcDataCalls
          .map((call) => `${call.operation} ${decodeURIComponent(new URL(call.url).pathname)}`)
          .join("; ")}`,
    );
  check("after refresh-all, the recalculation makes no data call", broken);
};

/**
 * SETTLE_MS after the service is back, with no user action, every cell shows a value (the
 * service is up: no cause remains to be named).
 */
export const cellsSettleAfterBack: Invariant = (record) => {
  const broken = record.observations
    .filter((observation) => observation.kind === "settled")
    .flatMap((observation) => cellBreaks(observation, [observation.service]));
  check(`every cell settles within ${SETTLE_MS / 60_000} min after the service is back`, broken);
};

/**
 * A message that says what a series holds ("finals 2007-01 to 2026-10") quotes the series
 * as the service has it, from its first final month; the part that happens to be cached
 * is said as such ("finals cached ... only").
 */
export const messagesQuoteTheSeries: Invariant = (record) => {
  const broken: string[] = [];
  const seen = new Set<string>();
  for (const observation of record.observations) {
    for (const { formula, output } of observation.cells) {
      if (!("error" in output)) continue;
      const quoted = /^No value for (\S+) in .*?\bfinals (\d{4}-\d{2}) to/.exec(output.error.message);
      if (!quoted) continue;
      const [, code = "", first] = quoted;
      const start = record.seriesStart[code];
      const said = `${formula}: ${output.error.message}`;
      if (first !== start && !seen.has(said)) {
        seen.add(said);
        broken.push(
          `at step "${observation.step}" (${observation.at}): the series' finals start in ${String(start)}; ${said}`,
        );
      }
    }
  }
  check("messages quote the series, not the part cached", broken);
};
