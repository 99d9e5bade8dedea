// PCD.INFO: one Series Info field, or the whole record as a field/value table. Costs no
// data request (the catalog is Series Info).
import type { Engine } from "../core/engine-api";
import type { SeriesInfo } from "../core/model";
import { parseCode } from "./arguments/code";
import { findField, parseFieldName } from "./arguments/field";
import type { CellTable } from "./cell-value";
import type { HostCapabilities } from "./host-capabilities";
import { infoFieldNames } from "../core/info-fields";
import { buildInfoTable, infoFieldCell } from "./shape/info-table";
import type { CellJob } from "./streaming-cell";

export interface InfoArguments {
  code: unknown;
  field: unknown;
}

export function infoJob(engine: Engine, args: InfoArguments, host: HostCapabilities): CellJob<CellTable> {
  return new InfoJob(engine, args, host);
}

/** A class, not an object of closures: one job per cell lives as long as the cell (values.ts). */
class InfoJob implements CellJob<CellTable> {
  readonly watch = "catalog";

  constructor(
    private readonly engine: Engine,
    private readonly args: InfoArguments,
    private readonly host: HostCapabilities,
  ) {}

  computeNow(): CellTable | undefined {
    const code = parseCode(this.args.code);
    const wanted = parseFieldName(this.args.field);
    const info = this.engine.lookupNow?.(code);
    return info === undefined ? undefined : this.shape(info, wanted);
  }

  async compute(): Promise<CellTable> {
    const code = parseCode(this.args.code);
    const wanted = parseFieldName(this.args.field);
    // Chained, not awaited: a cold workbook's cells wait for the catalogs at once (lookup
    // waits for the engine's stored state itself).
    return this.engine.lookup(code).then((info) => this.shape(info, wanted));
  }

  private shape(info: SeriesInfo, wanted: string | null): CellTable {
    if (wanted === null) return buildInfoTable(info, this.host);
    const field = findField(wanted, infoFieldNames(info));
    return [[infoFieldCell(info, field, this.host)]];
  }
}
