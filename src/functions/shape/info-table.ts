// PCD.INFO cells. Values are shown as the service sent them (markers such as "-" kept),
// except dates, which become date cells, and booleans, which become TRUE/FALSE when the
// service sent a recognisable boolean (anything else is shown as the text it was).
import type { SeriesInfo } from "../../core/model";
import { infoFieldNames } from "../../core/info-fields";
import type { CellTable, CellValue } from "../cell-value";
import { isoDateToSerial } from "../excel-dates";
import type { HostCapabilities } from "../host-capabilities";

const BOOLEAN_FIELDS = new Set(["has_forecast", "has_preliminary", "series_hist_changed"]);
const DATE_FIELDS = new Set(["updated_at", "last_available_final"]);

export function buildInfoTable(info: SeriesInfo, host: HostCapabilities): CellTable {
  return infoFieldNames(info).map((field) => [field, infoFieldCell(info, field, host)]);
}

export function infoFieldCell(info: SeriesInfo, field: string, host: HostCapabilities): CellValue {
  // Own fields only: "constructor" is not a field of a record.
  const raw = Object.hasOwn(info.raw, field) ? info.raw[field] : normalisedValue(info, field);
  if (BOOLEAN_FIELDS.has(field)) {
    const flag = readBoolean(raw);
    if (flag !== undefined) return flag;
  }
  if (DATE_FIELDS.has(field) && typeof raw === "string") {
    const serial = isoDateToSerial(raw);
    if (serial !== undefined) return host.dateCell(serial);
  }
  return plainCell(raw);
}

function readBoolean(raw: unknown): boolean | undefined {
  if (typeof raw === "boolean") return raw;
  if (typeof raw === "string") {
    const text = raw.trim().toLowerCase();
    if (text === "true") return true;
    if (text === "false") return false;
  }
  return undefined;
}

function plainCell(raw: unknown): CellValue {
  if (raw === null || raw === undefined) return "";
  if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") return raw;
  return JSON.stringify(raw);
}

/** For records whose raw copy lacks a spec field: the normalised value in the spec's shape. */
function normalisedValue(info: SeriesInfo, field: string): unknown {
  switch (field) {
    case "area":
      return info.area;
    case "assessment":
      return info.assessment;
    case "available_currencies":
      return info.availableCurrencies.join(",");
    case "available_units":
      return info.availableUnits.join(",");
    case "code":
      return info.code;
    case "commodity":
      return info.commodity;
    case "coverage":
      return info.coverage;
    case "default_currency":
      return info.defaultCurrency;
    case "default_unit":
      return info.defaultUnit;
    case "details":
      return info.details;
    case "has_forecast":
      return info.hasForecast;
    case "has_preliminary":
      return info.hasPreliminary;
    case "last_available_final":
      return info.lastAvailableFinal === null ? null : `${info.lastAvailableFinal}-01`;
    case "location":
      return info.location;
    case "product":
      return info.productName;
    case "remark_1":
      return info.remark1;
    case "remark_2":
      return info.remark2;
    case "series_hist_changed":
      return info.seriesHistChanged;
    case "specification":
      return info.specification;
    case "updated_at":
      return info.updatedAt;
    default:
      return undefined;
  }
}
