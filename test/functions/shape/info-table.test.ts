import { infoFieldNames, SPEC_INFO_FIELDS } from "../../../src/core/info-fields";
import { PLAIN_SERIAL_DATES } from "../../../src/functions/host-capabilities";
import { buildInfoTable, infoFieldCell } from "../../../src/functions/shape/info-table";
import { makeInfo } from "../../support/series-records";

const RAW = {
  area: "-",
  assessment: "Natural gas, Germany, border price",
  available_currencies: "EUR,USD",
  code: "68520-8-1",
  has_forecast: "True",
  has_preliminary: false,
  series_hist_changed: "maybe",
  last_available_final: "2025-06-01",
  updated_at: "not a date",
  remark_1: "lag: 1",
  incoterm: "DAP",
  price_type: { nested: 1 },
};
const INFO = makeInfo({ code: "68520-8-1", raw: RAW, updatedAt: null });

test.each<[string, unknown, string]>([
  ["area", "-", "markers kept as received"],
  ["assessment", "Natural gas, Germany, border price", "raw text"],
  ["has_forecast", true, "string True is TRUE"],
  ["has_preliminary", false, "JSON false is FALSE"],
  ["series_hist_changed", "maybe", "unknown boolean text shown as text"],
  ["last_available_final", 45809, "a date is a date serial"],
  ["updated_at", "not a date", "an unreadable date is its text"],
  ["incoterm", "DAP", "extra fields are shown"],
  ["price_type", '{"nested":1}', "structured extras as JSON text"],
  ["default_currency", "EUR", "a spec field missing from raw falls back to the normalised record"],
  ["available_units", "MWh,kWh", "lists fall back joined as the service sends them"],
  ["details", "", "missing optional text is empty"],
])("%s is %j (%s)", (field, value) => {
  expect(infoFieldCell(INFO, field, PLAIN_SERIAL_DATES)).toEqual(value);
});

test("the full table lists spec fields in spec order, then extras, two columns", () => {
  const table = buildInfoTable(INFO, PLAIN_SERIAL_DATES);
  expect(table.map((row) => row[0])).toEqual([...SPEC_INFO_FIELDS, "incoterm", "price_type"]);
  expect(table.every((row) => row.length === 2)).toBe(true);
  expect(infoFieldNames(INFO)).toHaveLength(SPEC_INFO_FIELDS.length + 2);
});

test("a record's field names are derived once and shared (frozen); another record gets its own", () => {
  const info = makeInfo({ code: "68520-8-1" });
  const names = infoFieldNames(info);
  expect(infoFieldNames(info)).toBe(names);
  expect(Object.isFrozen(names)).toBe(true);
  const other = { ...info, raw: { ...info.raw, extra_field: "x" } };
  expect(infoFieldNames(other)).toContain("extra_field");
  expect(names).not.toContain("extra_field");
});
