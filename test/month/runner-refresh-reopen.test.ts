// The runner's month start (`npm run recalc -- --cache FILE --refresh`): a workbook whose
// keys have cells of different needs is evaluated once (its cache and key list saved in
// the cache file), the monthly release comes out, and the workbook is reopened from the
// file and refreshed with refresh-all. The recalculation right after must make no data
// call, and so must the next opening of the workbook from the file: refresh-all covered
// every month any cell of each key reads. Runs runWorkbook, the
// CLI's own code path, against the month lab's emulator on a pinned clock moved
// explicitly (the runner's timers stay real: nothing here waits for the calendar).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runWorkbook, type RunReport } from "../../src/headless/run-workbook";
import { MonthLab, SERVICE_URL } from "./support/month-lab";

/** Monday 30 November 2026, 12:00 US Central: an ordinary day before December's release. */
const BEFORE_RELEASE = "2026-11-30T18:00:00Z";
/** Friday 4 December, 12:00 US Central: the day after the release (Thursday 3 December). */
const AFTER_RELEASE = "2026-12-04T18:00:00Z";

let directory: string;
let clockAt = Date.parse(BEFORE_RELEASE);
let lab: MonthLab;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "pcd-month-runner-"));
  clockAt = Date.parse(BEFORE_RELEASE);
  lab = await MonthLab.start({ seed: 1 }, () => clockAt);
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Two series with USD defaults that reach back before October 2013, each asked by cells of different needs. */
function mixedNeedsWorkbook(): string[] {
  const [x, y] = lab.state.catalog
    .ofProduct("energy_price")
    .filter(
      (s) =>
        s.lag === 0 && s.discontinuedMonth === undefined && s.defaultCurrency === "USD" && s.startMonth < 80,
    );
  if (!x || !y) throw new Error("the seeded catalog has no two USD series");
  return [
    `=PCD.VALUES("${x.code}")`,
    `=PCD.VALUE("${x.code}",DATE(2013,10,1))`,
    `=PCD.VALUE("${y.code}")`,
    `=PCD.VALUES("${y.code}","USD")`,
    `=PCD.VALUES("${y.code}",,,DATE(2019,1,1),"2019-06")`,
  ];
}

function run(formulas: string[], refresh: boolean): Promise<RunReport> {
  return runWorkbook({
    formulas,
    refresh,
    cacheFile: path.join(directory, "cache.json"),
    fetch: lab.fetch,
    clock: { now: () => clockAt },
    baseUrl: SERVICE_URL,
    username: lab.username,
    password: lab.password,
    timeoutMs: 60_000,
    log: () => undefined,
  });
}

test("after a release, --cache --refresh leaves the recalculation no data call to make", async () => {
  const formulas = mixedNeedsWorkbook();
  const first = await run(formulas, false);
  expect(first.passes[0]?.results.filter((result) => "error" in result)).toEqual([]);

  clockAt = Date.parse(AFTER_RELEASE);
  await lab.syncServiceClock();
  const reopened = await run(formulas, true);
  expect(reopened.refresh).toMatchObject({ failed: 0 });
  expect(reopened.passes[0]?.results.filter((result) => "error" in result)).toEqual([]);
  // Before the key list kept the union of its cells' needs, this pass bought 2 data requests.
  expect(dataCalls(reopened)).toEqual({ dataCalls: 0, dataRequests: 0 });

  // Opened again later that day from the list the refresh saved: the cache has it all.
  clockAt += 3_600_000;
  await lab.syncServiceClock();
  const later = await run(formulas, false);
  expect(later.passes[0]?.results.filter((result) => "error" in result)).toEqual([]);
  expect(dataCalls(later)).toEqual({ dataCalls: 0, dataRequests: 0 });
});

/** The data calls and requests of a run's recalculation (its one pass). */
function dataCalls(report: RunReport): { dataCalls: number; dataRequests: number | undefined } {
  const pass = report.passes[0];
  return {
    dataCalls: (pass?.http.series_values ?? 0) + (pass?.http.series_hist ?? 0),
    dataRequests: pass?.dataRequests,
  };
}
