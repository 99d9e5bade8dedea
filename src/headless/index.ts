// Programmatic API of the headless runner (benchmarks and tests run passes in-process).
export { runWorkbook, DEFAULT_TIMEOUT_MS, type RunOptions, type RunReport } from "./run-workbook";
export type { PassReport, FormulaResult } from "./run-pass";
export type { CellOutput, OutputError, OutputValue, OutputScalar } from "./cell-output";
export { parseFormula, FormulaSyntaxError, type ParsedFormula, type FormulaArgument } from "./formula";
export { reportJson, reportText } from "./report-format";
export { ReportWriter } from "./report-writer";
export { installCustomFunctionsShim } from "./custom-functions-shim";
