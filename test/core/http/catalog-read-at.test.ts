// The time a team gateway read the catalog it answers with: read from its header, and nothing
// else taken for a time (the header comes from the network).
import { catalogReadAt } from "../../../src/core/http/catalog-read-at";

test.each<[string, string | null, number | null]>([
  ["an ISO time", "2026-12-03T18:04:00.000Z", Date.UTC(2026, 11, 3, 18, 4)],
  ["no header", null, null],
  ["words", "yesterday at noon", null],
  ["an empty value", "", null],
  ["a value longer than any time", `2026-12-03T18:04:00.000Z${" ".repeat(40)}`, null],
  ["an offset instead of Z", "2026-12-03T12:04:00-06:00", Date.UTC(2026, 11, 3, 18, 4)],
  ["no zone (it would be read in this machine's)", "2026-12-03T18:04:00", null],
  ["an HTTP date", "Thu, 03 Dec 2026 18:04:00 GMT", null],
])("%s", (_case, header, expected) => {
  expect(catalogReadAt(header)).toBe(expected);
});
