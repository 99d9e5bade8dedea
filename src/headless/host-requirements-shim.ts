// Outside Excel there is no Office global, so the functions would return dates as bare
// serials. The runner says what an Excel with CustomFunctionsRuntime 1.4 says, so dates
// come back as in Excel (a serial with a yyyy-mm-dd number format): the report can then
// tell dates from other numbers and show them as YYYY-MM-DD. It claims no ExcelApi set, so
// PCD.SERIES reports PCD.INFO's table (a report has no place for an entity card).
import type { RequirementSets } from "../functions/host-capabilities";

const SUPPORTED: ReadonlyMap<string, number> = new Map([["CustomFunctionsRuntime", 1.4]]);

export const RUNNER_REQUIREMENTS: RequirementSets = {
  isSetSupported: (name, minVersion) => {
    const version = SUPPORTED.get(name);
    return version !== undefined && (minVersion === undefined || Number(minVersion) <= version);
  },
};

/** Installs the requirement sets unless a real Office global exists. */
export function installHostRequirementsShim(): void {
  const scope = globalThis as { Office?: unknown };
  if (scope.Office !== undefined) return;
  scope.Office = { context: { requirements: RUNNER_REQUIREMENTS } };
}
