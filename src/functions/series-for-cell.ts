// What every data cell does before it shapes its result: resolve its series, hold and watch
// its key with the months it reads, fetch them, and say when the data shown is cached data
// a failed fetch could not bring up to date (the cell keeps it and retries). The fast path
// (seriesForCellNow) does the same from the cache alone, at once.
import type { Engine, SeriesData } from "../core/engine-api";
import type { SeriesNeed } from "../core/series-need";
import type { CellRun } from "./streaming-cell";

export interface SeriesAsked {
  code: string;
  currency: string | number | null;
  unit: string | number | null;
}

/**
 * Chained, not awaited: every cell of a cold workbook waits here at once, for seconds, and
 * a suspended function per cell would be memory held for all that time. (Engine.resolve waits
 * for the engine's stored state itself.)
 */
export function seriesForCell(
  engine: Engine,
  request: SeriesAsked,
  need: SeriesNeed,
  run: CellRun,
): Promise<SeriesData> {
  return engine
    .resolve(request.code, request.currency, request.unit)
    .then((series) => {
      run.track(series.key, need);
      return engine.getSeries(series, need);
    })
    .then((data) => {
      if (data.staleBecause) run.stale(data.staleBecause);
      return data;
    });
}

/**
 * The fast path of a cell (CellJob.computeNow): the series when the engine can serve it
 * from the cache without a call or a wait (Engine.serveNow), its key tracked with the
 * months the cell reads; undefined otherwise (the cell then takes seriesForCell).
 */
export function seriesForCellNow(
  engine: Engine,
  request: SeriesAsked,
  need: SeriesNeed,
  track: (key: string, need?: SeriesNeed) => void,
): SeriesData | undefined {
  const data = engine.serveNow?.(request.code, request.currency, request.unit, need);
  if (data !== undefined) track(data.key, need);
  return data;
}
