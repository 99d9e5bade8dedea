import { evaluateTargets } from "../../bench/targets";
import { teamChecks } from "../../bench/team-targets";
import { gatewayLoad, teamFigures, teamWorkload, warmMember } from "./team-fixtures";

const PASS =
  "new runner holding the catalogs, pass: series via the warm gateway <= 1.2 x series from the saved cache";
const UPSTREAM = "no upstream data call while every answer is kept (warm members, load)";

describe("teamChecks", () => {
  test.each([
    [
      "median within 1.2 x, nothing bought: all met",
      teamFigures(),
      [
        [PASS, "360 ms / 300 ms = 1.20 (median of 2 members)", true],
        [UPSTREAM, "0 calls", true],
      ],
    ],
    [
      "series via the gateway more than 1.2 x the saved cache's: missed",
      teamFigures({ warm: [warmMember({ fromCatalogsPassMs: 400, fromSavedCachePassMs: 200 })] }),
      [
        [PASS, "400 ms / 200 ms = 2.00 (median of 1 members)", false],
        [UPSTREAM, "0 calls", true],
      ],
    ],
    [
      "the empty engine's comparisons are not targets: a slow empty engine misses nothing",
      teamFigures({ warm: [warmMember({ gatewayPassMs: 500, localPassMs: 20, gatewaySessionMs: 5000 })] }),
      [
        [PASS, "330 ms / 300 ms = 1.10 (median of 1 members)", true],
        [UPSTREAM, "0 calls", true],
      ],
    ],
    [
      "a call bought while everything was kept (here during the load) misses",
      teamFigures({ warmUpstreamDataCalls: 1, loads: [gatewayLoad({ upstreamDataCalls: 2 })] }),
      [
        [PASS, "360 ms / 300 ms = 1.20 (median of 2 members)", true],
        [UPSTREAM, "3 calls", false],
      ],
    ],
    [
      "no warm member measured: nothing is met",
      teamFigures({ warm: [] }),
      [
        [PASS, "not measured", false],
        [UPSTREAM, "0 calls", false],
      ],
    ],
  ] as const)("%s", (_name, team, expected) => {
    expect(teamChecks(teamWorkload(team)).map((check) => [check.target, check.value, check.met])).toEqual(
      expected,
    );
    expect(teamChecks(teamWorkload(team)).every((check) => check.workload === "W7")).toBe(true);
  });

  test("a W7 without team figures has none of these checks", () => {
    expect(teamChecks(teamWorkload(null))).toEqual([]);
  });
});

test("evaluateTargets holds W7 to the union's bounds and to its team checks", () => {
  const checks = evaluateTargets([teamWorkload()]).map((check) => [
    check.workload,
    check.target,
    check.value,
    check.met,
  ]);
  expect(checks).toEqual([
    ["W7", "series_values calls / lower bound = 1.00", "20 / 18 = 1.11", false],
    ["W7", "series_hist calls / lower bound = 1.00", "15 / 15 = 1.00", true],
    ["W7", "data requests / lower bound = 1.00", "1100 / 1100 = 1.00", true],
    ["W7", PASS, "360 ms / 300 ms = 1.20 (median of 2 members)", true],
    ["W7", UPSTREAM, "0 calls", true],
  ]);
});
