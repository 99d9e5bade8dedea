// Whether a bought Series Values record reaches the month the catalog lists as its latest final.
import { shortOfCatalog } from "../../../src/gateway/purchase/short-of-catalog";

const record = (...dates: string[]): unknown => ({
  code: "1-1-1",
  series_final_values: dates.map((date, index) => ({ date, value: index })),
});

test.each<[string, boolean, unknown, string | null | undefined]>([
  // what, short, the record, the catalog's last_available_final
  ["ending at the catalog's month", false, record("2026-08-01", "2026-10-01", "2026-09-01"), "2026-10-01"],
  ["ending past it", false, record("2026-11-01"), "2026-10-01"],
  ["ending a month before it", true, record("2026-08-01", "2026-09-01"), "2026-10-01"],
  ["with no final value", true, record(), "2026-10-01"],
  ["with no list of final values", true, { code: "1-1-1" }, "2026-10-01"],
  [
    "with a time in its dates, and one date unreadable",
    false,
    record("2026-10-01T00:00:00", "soon"),
    "2026-10-01",
  ],
  ["that is not a record", true, null, "2026-10-01"],
  ["whose catalog names no month", false, record("2026-09-01"), null],
  ["whose catalog's month is unreadable", false, record("2026-09-01"), "n/a"],
  ["with nothing to judge it by (History)", false, record("2026-09-01"), undefined],
])("a record %s: short %p", (_case, short, bought, lastAvailableFinal) => {
  expect(shortOfCatalog(bought, lastAvailableFinal)).toBe(short);
});
