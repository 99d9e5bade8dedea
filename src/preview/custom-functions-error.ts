// The preview's CustomFunctions.Error and ErrorCode: the shape the functions bundle
// builds its cell errors with, exactly as in Excel.

export const PREVIEW_ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
} as const;

export class PreviewCustomFunctionsError {
  readonly code: string;
  readonly message: string | undefined;

  constructor(code: string, message?: string) {
    this.code = code;
    this.message = message;
  }
}
