// PCD.INFO: one Series Info field, or the whole record as a field/value table. Costs no
// data request (the catalog is Series Info).
import type { Engine } from "../core/engine-api";
import type { SeriesInfo } from "../core/model";
import { parseCode } from "./arguments/code";
import { findField, parseFieldName } from "./arguments/field";
import type { CellTable } from "./cell-value";
import type { HostCapabilities } from "./host-capabilities";
import { buildInfoTable, infoFieldCell, infoFieldNames } from "./shape/info-table";
import type { CellJob } from "./streaming-cell";

export interface InfoArguments {
  code: unknown;
  field: unknown;
}

export function infoJob(engine: Engine, args: InfoArguments, host: HostCapabilities): CellJob<CellTable> {
  const shape = (info: SeriesInfo, wanted: string | null): CellTable => {
    if (wanted === null) return buildInfoTable(info, host);
    const field = findField(wanted, infoFieldNames(info));
    return [[infoFieldCell(info, field, host)]];
  };
  return {
    watch: "catalog",
    computeNow: () => {
      const code = parseCode(args.code);
      const wanted = parseFieldName(args.field);
      const info = engine.lookupNow?.(code);
      return info === undefined ? undefined : shape(info, wanted);
    },
    compute: async () => {
      const code = parseCode(args.code);
      const wanted = parseFieldName(args.field);
      await engine.ready();
      return shape(await engine.lookup(code), wanted);
    },
  };
}
