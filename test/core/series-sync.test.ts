// SeriesSync through the engine: a history revision is bought once a cell reads the months it
// changed, also when the release that flagged it has passed (the catalog's flag is gone then).
import type { SeriesInfo } from "../../src/core/model";
import { LATEST_ONLY, WHOLE_SERIES } from "../../src/core/series-need";
import { PcdError } from "../../src/core/errors";
import { createHarness, type Harness } from "./support/engine-harness";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

const CODE = "68520-8-1";
const KEY = `live|energy_price|${CODE}|default|default`;

function harness(): Harness {
  const service = new FakeService();
  service.addSeries(seriesInfo({ code: CODE }));
  service.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
  return createHarness({ service });
}

/** A monthly release comes out: the catalog's record changes (the cached catalog predates it). */
function release(h: Harness, patch: Partial<SeriesInfo>): void {
  h.clock.now += 60_000;
  h.schedule.previousReleaseStart = h.schedule.releaseStart;
  h.schedule.releaseStart = h.clock.now;
  h.clock.now += 60_000;
  h.service.updateSeries(CODE, patch);
}

const firstMonthValue = (h: Harness): number | undefined => h.engine.peek(KEY)?.finals.valueAt(0);

test.each<[string, "another cell" | "a failed History call"]>([
  ["only the latest value was read while the revision was flagged", "another cell"],
  ["the whole table's History call failed while the revision was flagged", "a failed History call"],
])("a history revision is bought after the next release when %s", async (_case, how) => {
  const h = harness();
  const request = async () => h.engine.resolve(CODE, null, null);
  await h.engine.getSeries(await request(), WHOLE_SERIES);
  const before = firstMonthValue(h);
  expect(before).toBeDefined();

  // Release 2 revises the history (the service's old months change).
  release(h, { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03", seriesHistChanged: true });
  const original = h.service.valueOf;
  h.service.valueOf = (code, month) => (month < "2010-01" ? 999 : original(code, month));
  if (how === "another cell") {
    await h.engine.getSeries(await request(), LATEST_ONLY);
  } else {
    let failHistory = true;
    h.service.failWith((call) =>
      failHistory && call.operation === "series_hist"
        ? new PcdError("timeout", "History did not answer in time")
        : undefined,
    );
    const shown = await h.engine.getSeries(await request(), WHOLE_SERIES);
    // While the revision is flagged the old months are said to be stale.
    expect(shown.staleBecause?.kind).toBe("timeout");
    failHistory = false;
  }
  expect(firstMonthValue(h)).toBe(before);

  // Release 3 is ordinary: the catalog no longer flags the revision, which was never bought.
  release(h, { lastAvailableFinal: "2026-12", updatedAt: "2027-01-06", seriesHistChanged: false });
  const histories = h.service.calls.filter((call) => call.operation === "series_hist").length;
  const shown = await h.engine.getSeries(await request(), WHOLE_SERIES);
  expect(shown.staleBecause).toBeUndefined();
  expect(firstMonthValue(h)).toBe(999);
  expect(h.service.calls.filter((call) => call.operation === "series_hist").length).toBe(histories + 1);
  // Bought once: the next look needs nothing.
  const calls = h.service.dataCalls().length;
  await h.engine.getSeries(await request(), WHOLE_SERIES);
  expect(h.service.dataCalls()).toHaveLength(calls);
});
