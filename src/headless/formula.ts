// The runner reads its formula lines with the workbook's PCD formula parser
// (src/workbook/pcd-formula-parse.ts); DATE(y,m,d) becomes Excel's date serial, as the
// functions receive a date from a cell.
import { calendarToSerial, isValidCalendarDate } from "../functions/excel-dates";
import {
  parseFormulaValues,
  type FormulaSyntaxError,
  type ParsedFormula,
} from "../workbook/pcd-formula-parse";

export {
  FUNCTION_NAMES,
  FormulaSyntaxError,
  MAX_NESTING,
  type FormulaArgument,
  type FunctionName,
  type ParsedFormula,
} from "../workbook/pcd-formula-parse";

export function parseFormula(text: string): ParsedFormula | FormulaSyntaxError {
  return parseFormulaValues(text, (date) => (isValidCalendarDate(date) ? calendarToSerial(date) : undefined));
}
