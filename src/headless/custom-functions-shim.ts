// Outside Excel there is no CustomFunctions global. The runner (and tests) install this
// stand-in so the real functions.ts can build its errors exactly as it does in Excel.

export const SHIM_ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
} as const;

/** Mirrors CustomFunctions.Error: an error code and an optional message. */
export class ShimCustomFunctionsError {
  readonly code: string;
  readonly message: string | undefined;

  constructor(code: string, message?: string) {
    this.code = code;
    this.message = message;
  }
}

export function isCustomFunctionsError(value: unknown): value is { code: string; message?: string } {
  return (
    value instanceof ShimCustomFunctionsError ||
    (typeof value === "object" &&
      value !== null &&
      typeof (value as { code?: unknown }).code === "string" &&
      String((value as { code: string }).code).startsWith("#"))
  );
}

/** Installs the stand-in unless a real CustomFunctions global exists. */
export function installCustomFunctionsShim(): void {
  const scope = globalThis as { CustomFunctions?: unknown };
  if (scope.CustomFunctions !== undefined) return;
  scope.CustomFunctions = { Error: ShimCustomFunctionsError, ErrorCode: SHIM_ERROR_CODES };
}
