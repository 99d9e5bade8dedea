// PCD.SERIES: a series as a card (an entity value) where Excel can show one (ExcelApi 1.16
// or later), else PCD.INFO's field/value table.
//
// What a card costs: by default it reads what one Series Values request buys (the latest
// final, the 13 months up to it and the forecasts), so the latest value, the horizon and a
// recent table cost one data request, shared with every PCD.VALUE or recent PCD.VALUES
// cell of the same series. history = 1 adds the months before that window (a Series Values
// History request) and with them the history start. The fallback table is the catalog
// record only and costs no data request at all.
import type { Engine } from "../core/engine-api";
import { LATEST_ONLY, WHOLE_SERIES, type SeriesNeed } from "../core/series-need";
import { parseCode } from "./arguments/code";
import { parseCurrencyOrUnit } from "./arguments/currency-unit";
import type { HistoryOption } from "../contracts/formula-options";
import { parseHistory } from "./arguments/options";
import type { CellTable } from "./cell-value";
import type { HostCapabilities } from "./host-capabilities";
import { buildSeriesCard, type CardScope } from "./series-card-entity";
import { seriesForCell } from "./series-for-cell";
import { buildInfoTable } from "./shape/info-table";
import type { CellJob } from "./streaming-cell";

export interface SeriesCardArguments {
  code: unknown;
  currency: unknown;
  unit: unknown;
  history: unknown;
}

export interface SeriesCardRequest {
  code: string;
  currency: string | number | null;
  unit: string | number | null;
  scope: CardScope;
}

/** Validates every argument (PcdError "input" naming the first bad one). */
export function parseSeriesCardArguments(args: SeriesCardArguments): SeriesCardRequest {
  const code = parseCode(args.code);
  const currency = parseCurrencyOrUnit(args.currency, "currency");
  const unit = parseCurrencyOrUnit(args.unit, "unit");
  const history: HistoryOption = parseHistory(args.history);
  return { code, currency, unit, scope: history === 1 ? "all" : "recent" };
}

/** The months a card reads: the Series Values window, or every month with history = 1. */
export function seriesCardNeed(scope: CardScope): SeriesNeed {
  return scope === "all" ? WHOLE_SERIES : LATEST_ONLY;
}

/**
 * The card is a 1×1 table: functions.json declares one result shape for every host, and
 * the fallback is a table, so the entity is that table's only cell (a 1×1 result fills
 * one cell, which =A1.Latest then reads).
 */
export function seriesCardJob(
  engine: Engine,
  args: SeriesCardArguments,
  host: HostCapabilities,
): CellJob<CellTable> {
  const numberType = host.formattedNumberType;
  if (!host.entities || numberType === null) {
    return {
      watch: "catalog",
      compute: async () => {
        const request = parseSeriesCardArguments(args);
        await engine.ready();
        // Currency and unit are checked as on a card (free: the catalog), then not needed.
        const series = await engine.resolve(request.code, request.currency, request.unit);
        return buildInfoTable(series.info, host);
      },
    };
  }
  return {
    watch: "data",
    compute: async (run) => {
      const request = parseSeriesCardArguments(args);
      const data = await seriesForCell(engine, request, seriesCardNeed(request.scope), run);
      return [[buildSeriesCard(data, { scope: request.scope, numberType })]];
    },
  };
}
