import { evaluateTargets } from "../../bench/targets";
import { teamChecks } from "../../bench/team-targets";
import { gatewayLoad, teamFigures, teamWorkload, warmMember } from "./team-fixtures";

const PASS = "warm pass through the gateway (empty engine) <= 1.2 x second pass from the engine's cache";
const SESSION = "new runner, sign-in + pass: empty engine via the warm gateway <= 1.2 x from the saved cache";
const UPSTREAM = "no upstream data call while every answer is kept (warm members, load)";

describe("teamChecks", () => {
  test.each([
    [
      "medians within 1.2 x, nothing bought: all met",
      teamFigures(),
      [
        [PASS, "120 ms / 100 ms = 1.20 (median of 2 members)", true],
        [SESSION, "600 ms / 550 ms = 1.09 (median of 2 members)", true],
        [UPSTREAM, "0 calls", true],
      ],
    ],
    [
      "a slow pass through the gateway misses its target alone",
      teamFigures({ warm: [warmMember({ gatewayPassMs: 500, localPassMs: 20 })] }),
      [
        [PASS, "500 ms / 20 ms = 25.00 (median of 1 members)", false],
        [SESSION, "600 ms / 550 ms = 1.09 (median of 1 members)", true],
        [UPSTREAM, "0 calls", true],
      ],
    ],
    [
      "a call bought while everything was kept (here during the load) misses",
      teamFigures({ warmUpstreamDataCalls: 1, loads: [gatewayLoad({ upstreamDataCalls: 2 })] }),
      [
        [PASS, "120 ms / 100 ms = 1.20 (median of 2 members)", true],
        [SESSION, "600 ms / 550 ms = 1.09 (median of 2 members)", true],
        [UPSTREAM, "3 calls", false],
      ],
    ],
    [
      "no warm member measured: nothing is met",
      teamFigures({ warm: [] }),
      [
        [PASS, "not measured", false],
        [SESSION, "not measured", false],
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
    ["W7", PASS, "120 ms / 100 ms = 1.20 (median of 2 members)", true],
    ["W7", SESSION, "600 ms / 550 ms = 1.09 (median of 2 members)", true],
    ["W7", UPSTREAM, "0 calls", true],
  ]);
});
