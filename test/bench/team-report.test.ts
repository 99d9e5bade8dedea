import { renderResults } from "../../bench/report";
import type { BenchResults } from "../../bench/results";
import { renderTeam, teamRows } from "../../bench/team-report";
import { gatewayLoad, teamFigures, teamWorkload, warmMember } from "./team-fixtures";

test("teamRows: the team, its cold run, the warm comparison and the information rows, each store's load and what was skipped", () => {
  const team = teamFigures({
    loads: [
      gatewayLoad(),
      gatewayLoad({ store: "Postgres", perSecond: 1200.4, gatewayCpuMsPerRequest: null }),
    ],
    skipped: ["Postgres: not measured, for a reason"],
  });
  expect(teamRows(teamWorkload(team), team)).toEqual([
    ["Members x formulas; keys shared by all / own per member", "10 x 200; 70 / 68.4"],
    ["Cold, all at once: start to a member's last value, median / slowest", "5000 ms / 6500 ms"],
    [
      "Data calls: members to the gateway / gateway to the service / bound",
      "140 / 35 (2 refused for the rate) / 33",
    ],
    [
      "Warm pass, new runner holding the catalogs: series via the gateway / series from the saved cache",
      "360 ms / 300 ms = 1.20 (median of 2: 1.10, 1.30)",
    ],
    [
      "Information: the same data calls alone (new process, no engine: sent at once, answers parsed) / series from the saved cache",
      "60 ms / 300 ms = 0.20 (median of 2: 0.20, 0.20); 850 KB of answers a member",
    ],
    [
      "Information: warm pass, empty engine via the gateway / second pass from the engine's cache",
      "120 ms / 100 ms = 1.20 (median of 2: 1.10, 1.30)",
    ],
    [
      "Information: new runner, sign-in + pass, empty engine via the gateway / from the saved cache",
      "600 ms / 550 ms = 1.09 (median of 2: 1.09, 1.09)",
    ],
    [
      "From the store, PGlite: requests/s; p50 / p99 latency",
      "800/s; 11.0 / 40.3 ms (4000 requests by 10 members at once in 5.0 s, 12.5 series each, 0 errors, 0 upstream data calls, gateway CPU 1.23 ms a request)",
    ],
    [
      "From the store, Postgres: requests/s; p50 / p99 latency",
      "1200/s; 11.0 / 40.3 ms (4000 requests by 10 members at once in 5.0 s, 12.5 series each, 0 errors, 0 upstream data calls)",
    ],
    ["Not measured", "Postgres: not measured, for a reason"],
  ]);
});

test("teamRows says when no warm member was measured", () => {
  const team = teamFigures({ warm: [], loads: [] });
  const rows = teamRows(teamWorkload(team), team);
  expect(rows.slice(3)).toEqual([
    [
      "Warm pass, new runner holding the catalogs: series via the gateway / series from the saved cache",
      "not measured",
    ],
    [
      "Information: the same data calls alone (new process, no engine: sent at once, answers parsed) / series from the saved cache",
      "not measured",
    ],
    [
      "Information: warm pass, empty engine via the gateway / second pass from the engine's cache",
      "not measured",
    ],
    [
      "Information: new runner, sign-in + pass, empty engine via the gateway / from the saved cache",
      "not measured",
    ],
  ]);
  expect(teamRows(teamWorkload(team), teamFigures({ warm: [warmMember()] })).length).toBe(8);
});

test("teamRows: the answers alone from the members that have them (results from before they were measured have none)", () => {
  const earlier = warmMember({ answersAloneMs: undefined, answersAloneCharacters: undefined });
  const team = teamFigures({
    warm: [earlier, warmMember({ answersAloneMs: 90, fromSavedCachePassMs: 100 })],
    loads: [],
  });
  expect(teamRows(teamWorkload(team), team)[4]).toEqual([
    "Information: the same data calls alone (new process, no engine: sent at once, answers parsed) / series from the saved cache",
    "90 ms / 100 ms = 0.90 (median of 1: 0.90); 850 KB of answers a member",
  ]);
  const none = teamFigures({ warm: [earlier], loads: [] });
  expect(teamRows(teamWorkload(none), none)[4]?.[1]).toBe("not measured");
});

test.each([
  ["no W7 among the workloads", [], ["W7 was not run."]],
  ["a W7 without its team figures", [teamWorkload(null)], ["W7 was not run."]],
])("renderTeam with %s", (_name, workloads, expected) => {
  expect(renderTeam(workloads)).toEqual(expected);
});

test("renderResults has W7's section and W7's rows in the common tables", () => {
  const results: BenchResults = {
    generatedAt: "2026-11-26T16:00:00.000Z",
    durationMs: 1000,
    machine: teamFigures().machine,
    settings: { seed: 7, latencyMs: 200, latencyPerCodeMs: 2, naiveSample: 0, w1Formulas: 0, scaleSizes: [] },
    workloads: [teamWorkload()],
    addin: null,
    targets: [],
    failures: [],
  };
  const markdown = renderResults(results);
  expect(markdown).toContain("### W7: a team through the gateway");
  expect(markdown).toContain(
    "Measured 2026-11-26T18:00:00.000Z in 61.0 s (load average 1.5 / 1.2 / 1 at the end).\n\n| Figure | Value |\n| --- | --- |\n| Members x formulas; keys shared by all / own per member | 10 x 200; 70 / 68.4 |",
  );
  expect(markdown).toContain("| W7 | 1 / 1 | 3 / 3 | 20 / 18 | 15 / 15 | 9 / 0 | 35 / 33 = 1.06 |");
  expect(markdown).toContain("| W7 | 2000 | 750 | 1100 | 1100 | 1.00 |");
});
