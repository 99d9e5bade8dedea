// What the Excel host can display. Formatted numbers (dates that read as dates) need
// CustomFunctionsRuntime 1.4; ExcelApi 1.19 adds the Double data type with a number
// format. Entity values (PCD.SERIES's card) need ExcelApi 1.16 on top of formatted numbers.
// Elsewhere (older hosts, the headless runner) a date is its plain serial and a card is
// PCD.INFO's table.
import type { CellValue, FormattedNumberCell } from "./cell-value";

export const DATE_NUMBER_FORMAT = "yyyy-mm-dd";

export interface HostCapabilities {
  /** How a date serial is returned to a cell. */
  dateCell(serial: number): CellValue;
  /** The data type of a number with its own format; null where the host has none (plain numbers). */
  formattedNumberType: FormattedNumberCell["type"] | null;
  /** True when a cell can hold an entity value (Excel.EntityCellValue, ExcelApi 1.16). */
  entities: boolean;
}

/** The part of Office.context.requirements this module needs. */
export interface RequirementSets {
  isSetSupported(name: string, minVersion?: string): boolean;
}

export const PLAIN_SERIAL_DATES: HostCapabilities = {
  dateCell: (serial) => serial,
  formattedNumberType: null,
  entities: false,
};

// One object per kind of host: shaped tables are shared per host (shape/series-memo.ts),
// so every cell of a runtime must get the same capabilities object.
const DOUBLE_DATES = formattedDates("Double", true);
const FORMATTED_NUMBER_DATES = formattedDates("FormattedNumber", false);
const FORMATTED_NUMBER_DATES_AND_ENTITIES = formattedDates("FormattedNumber", true);

function formattedDates(type: "Double" | "FormattedNumber", entities: boolean): HostCapabilities {
  return {
    dateCell: (serial) => ({ type, basicValue: serial, numberFormat: DATE_NUMBER_FORMAT }),
    formattedNumberType: type,
    entities,
  };
}

export function hostCapabilitiesFor(requirements: RequirementSets | undefined): HostCapabilities {
  if (!requirements || !safelySupported(requirements, "CustomFunctionsRuntime", "1.4")) {
    return PLAIN_SERIAL_DATES;
  }
  // ExcelApi 1.19 includes 1.16: a host with Double dates has entities too.
  if (safelySupported(requirements, "ExcelApi", "1.19")) return DOUBLE_DATES;
  return safelySupported(requirements, "ExcelApi", "1.16")
    ? FORMATTED_NUMBER_DATES_AND_ENTITIES
    : FORMATTED_NUMBER_DATES;
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
