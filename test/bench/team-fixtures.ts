// A W7 result for the report's and the targets' unit tests.
import { zeroCalls } from "../../bench/bounds";
import type { WorkloadResult } from "../../bench/results";
import type { GatewayLoad, TeamFigures, WarmComparison } from "../../bench/team-results";

export function warmMember(overrides: Partial<WarmComparison> = {}): WarmComparison {
  return {
    member: "member01@example.com",
    formulas: 200,
    fromCatalogsPassMs: 330,
    fromSavedCachePassMs: 300,
    fromCatalogsDataCalls: 14,
    answersAloneMs: 60,
    answersAloneCharacters: 850_000,
    gatewayPassMs: 110,
    localPassMs: 100,
    gatewaySessionMs: 600,
    localSessionMs: 550,
    gatewayDataCalls: 12,
    cellErrors: 0,
    ...overrides,
  };
}

export function gatewayLoad(overrides: Partial<GatewayLoad> = {}): GatewayLoad {
  return {
    store: "PGlite",
    concurrency: 10,
    requests: 4000,
    errors: 0,
    wallMs: 5000,
    perSecond: 800,
    p50Ms: 11.04,
    p99Ms: 40.26,
    recordsPerRequest: 12.5,
    gatewayCpuMsPerRequest: 1.234,
    upstreamDataCalls: 0,
    ...overrides,
  };
}

export function teamFigures(overrides: Partial<TeamFigures> = {}): TeamFigures {
  return {
    measuredAt: "2026-11-26T18:00:00.000Z",
    durationMs: 61_000,
    machine: {
      cpuModel: "Intel Xeon",
      cores: 2,
      memoryGiB: 23.6,
      node: "v20.20.2",
      platform: "linux",
      loadAverage: [1.5, 1.2, 1],
    },
    members: 10,
    formulasPerMember: 200,
    sharedKeys: 70,
    ownKeysPerMember: 68.4,
    memberCalls: { ...zeroCalls(), series_info: 30, series_values: 80, series_hist: 60, data_limits: 30 },
    upstreamRefused: 2,
    memberPassMs: [4000, 5000, 6500],
    warm: [
      warmMember(),
      warmMember({ member: "member02@example.com", fromCatalogsPassMs: 390, gatewayPassMs: 130 }),
    ],
    warmUpstreamDataCalls: 0,
    loads: [gatewayLoad()],
    skipped: [],
    ...overrides,
  };
}

/** W7's workload; null: without its team figures. */
export function teamWorkload(team: TeamFigures | null = teamFigures()): WorkloadResult {
  return {
    id: "W7",
    title: "a team of 10 through the gateway, cold, all at once",
    formulas: 2000,
    distinctKeys: 750,
    composition: null,
    calls: {
      ...zeroCalls(),
      access_token: 1,
      series_info: 3,
      series_values: 20,
      series_hist: 15,
      data_limits: 9,
    },
    runnerCalls: null,
    callsBound: { ...zeroCalls(), access_token: 1, series_info: 3, series_values: 18, series_hist: 15 },
    dataRequests: 1100,
    dataRequestsBound: 1100,
    wallMs: 6500,
    rateLimitBoundMs: 2100,
    cpuMsPerCachedFormula: null,
    warmMsPerFormula: null,
    peakRssMiB: 800,
    rssGrowthMiB: null,
    cpuMs: 4000,
    cellErrors: 0,
    naive: null,
    ...(team === null ? {} : { team }),
    notes: [],
  };
}
