// Binds a cell job to Excel: the shared engine, the host's date display and
// CustomFunctions.Error. Every failure, even before the engine exists, ends as a cell error.
import type { Engine } from "../core/engine-api";
import { getEngine } from "../host/shared-engine";
import { toCellError, type CellError } from "./cell-errors";
import { detectHostCapabilities, type HostCapabilities } from "./host-capabilities";
import { startStreamingCell, type CellJob } from "./streaming-cell";

export function runCell<T>(
  invocation: CustomFunctions.StreamingInvocation<T>,
  makeJob: (engine: Engine, host: HostCapabilities) => CellJob<T>,
): void {
  try {
    const engine = getEngine();
    startStreamingCell(invocation, makeJob(engine, detectHostCapabilities()), {
      engine,
      toHostError: toCustomFunctionsError,
      now: () => engine.now(),
    });
  } catch (error) {
    invocation.setResult(toCustomFunctionsError(toCellError(error)));
  }
}

/** Looked up at call time: the CustomFunctions global exists only inside Excel (or the runner's shim). */
export function toCustomFunctionsError(error: CellError): CustomFunctions.Error {
  const code =
    error.type === "#VALUE!"
      ? CustomFunctions.ErrorCode.invalidValue
      : error.type === "#DIV/0!"
        ? CustomFunctions.ErrorCode.divisionByZero
        : CustomFunctions.ErrorCode.notAvailable;
  return new CustomFunctions.Error(code, error.message);
}
