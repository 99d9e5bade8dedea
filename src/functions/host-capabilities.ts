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

export function hostCapabilitiesFor(requirements: RequirementSets | undefined): HostCapabilities {
  if (!requirements || !safelySupported(requirements, "CustomFunctionsRuntime", "1.4")) {
    return PLAIN_SERIAL_DATES;
  }
  const type = safelySupported(requirements, "ExcelApi", "1.19") ? "Double" : "FormattedNumber";
  return { dateCell: (serial) => ({ type, basicValue: serial, numberFormat: DATE_NUMBER_FORMAT }) };
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
