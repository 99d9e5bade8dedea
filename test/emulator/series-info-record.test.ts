// A series' Series Info record is built again only when something it is made of changed: the
// release view's fields or the wire options. Otherwise the record built last is served again.
import { catalogForSeed } from "../../src/emulator/catalog";
import { resolveOptions, type EmulatorOptions } from "../../src/emulator/options";
import type { SeriesView } from "../../src/emulator/release-state";
import { buildSeriesInfoRecord, seriesInfoRecord } from "../../src/emulator/series-info-record";

const [series] = catalogForSeed(1).series;
const view: SeriesView = { lastFinal: 24_300, updatedAt: "2026-11-04", histChanged: false, revisions: [] };
const options = resolveOptions({});

test("the same view and options: the record built last, not a new one", () => {
  if (series === undefined) throw new Error("empty catalog");
  const first = seriesInfoRecord(series, view, options);
  expect(seriesInfoRecord(series, { ...view, revisions: [{ beforeMonth: 1 }] }, options)).toBe(first);
  expect(first).toEqual(buildSeriesInfoRecord(series, view, options));
});

test.each<[string, Partial<SeriesView>, Partial<EmulatorOptions>]>([
  ["a new last final", { lastFinal: 24_301 }, {}],
  ["a new updated_at", { updatedAt: "2026-12-03" }, {}],
  ["history changed", { histChanged: true }, {}],
  ["another not-applicable marker", {}, { naMarker: "n/a" }],
  ["booleans as texts", {}, { boolStrings: !options.boolStrings }],
])("%s: a new record, as built from scratch", (_name, viewChange, optionChange) => {
  if (series === undefined) throw new Error("empty catalog");
  const before = seriesInfoRecord(series, view, options);
  const changedView = { ...view, ...viewChange };
  const changedOptions = { ...options, ...optionChange };
  const after = seriesInfoRecord(series, changedView, changedOptions);
  expect(after).not.toBe(before);
  expect(after).toEqual(buildSeriesInfoRecord(series, changedView, changedOptions));
  expect(after).not.toEqual(before);
});
