// What the Excel host can display. Formatted numbers (dates that read as dates) need
// CustomFunctionsRuntime 1.4; ExcelApi 1.19 adds the Double data type with a number
// format. Elsewhere (older hosts, the headless runner) a date is its plain serial.
import type { CellValue } from "./cell-value";

export const DATE_NUMBER_FORMAT = "yyyy-mm-dd";

export interface HostCapabilities {
  /** How a date serial is returned to a cell. */
  dateCell(serial: number): CellValue;
}

/** The part of Office.context.requirements this module needs. */
export interface RequirementSets {
  isSetSupported(name: string, minVersion?: string): boolean;
}

export const PLAIN_SERIAL_DATES: HostCapabilities = { dateCell: (serial) => serial };

// One object per kind of host: shaped tables are shared per host (shape/series-memo.ts),
// so every cell of a runtime must get the same capabilities object.
const DOUBLE_DATES = formattedDates("Double");
const FORMATTED_NUMBER_DATES = formattedDates("FormattedNumber");

function formattedDates(type: "Double" | "FormattedNumber"): HostCapabilities {
  return { dateCell: (serial) => ({ type, basicValue: serial, numberFormat: DATE_NUMBER_FORMAT }) };
}

export function hostCapabilitiesFor(requirements: RequirementSets | undefined): HostCapabilities {
  if (!requirements || !safelySupported(requirements, "CustomFunctionsRuntime", "1.4")) {
    return PLAIN_SERIAL_DATES;
  }
  return safelySupported(requirements, "ExcelApi", "1.19") ? DOUBLE_DATES : FORMATTED_NUMBER_DATES;
}

/** Reads the running host's requirement sets; outside Office there are none. */
export function detectHostCapabilities(): HostCapabilities {
  const office = (globalThis as { Office?: { context?: { requirements?: RequirementSets } } }).Office;
  return hostCapabilitiesFor(office?.context?.requirements);
}

function safelySupported(requirements: RequirementSets, name: string, version: string): boolean {
  try {
    return requirements.isSetSupported(name, version);
  } catch {
    return false;
  }
}
