// PCD.INFO: one Series Info field, or the whole record as a field/value table. Costs no
// data request (the catalog is Series Info).
import type { Engine } from "../core/engine-api";
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
  return {
    watch: "catalog",
    compute: async () => {
      const code = parseCode(args.code);
      const wanted = parseFieldName(args.field);
      await engine.ready();
      const info = await engine.lookup(code);
      if (wanted === null) return buildInfoTable(info, host);
      const field = findField(wanted, infoFieldNames(info));
      return [[infoFieldCell(info, field, host)]];
    },
  };
}
