// The fields of a Series Info record in the order PCD shows them (PCD.INFO's full table, and
// the rows such a table fills, which the pane needs to place tables): docs/service.md §2.1's
// fields in that table's order, then the extra fields a record carries.
import type { SeriesInfo } from "./model";

/** docs/service.md §2.1 fields in that table's order (the order of PCD.INFO's full table). */
export const SPEC_INFO_FIELDS = [
  "area",
  "assessment",
  "available_currencies",
  "available_units",
  "code",
  "commodity",
  "coverage",
  "default_currency",
  "default_unit",
  "details",
  "has_forecast",
  "has_preliminary",
  "last_available_final",
  "location",
  "product",
  "remark_1",
  "remark_2",
  "series_hist_changed",
  "specification",
  "updated_at",
] as const;

/** Field names per catalog record (records are replaced, never changed, when the catalog is). */
const fieldNamesOf = new WeakMap<SeriesInfo, readonly string[]>();

/**
 * Spec fields in spec order, then the extra fields this record carries. Derived once per
 * record: every INFO cell of the record asks again on each catalog change.
 */
export function infoFieldNames(info: SeriesInfo): readonly string[] {
  let names = fieldNamesOf.get(info);
  if (names === undefined) {
    const spec: readonly string[] = SPEC_INFO_FIELDS;
    const extra = Object.keys(info.raw).filter((name) => !spec.includes(name));
    names = Object.freeze([...spec, ...extra]);
    fieldNamesOf.set(info, names);
  }
  return names;
}
