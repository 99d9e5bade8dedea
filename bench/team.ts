// W7: a team through the gateway. A fresh emulator, a fresh gateway (fresh PGlite store in
// memory, in a process of its own) in front of it, and `teamMembers` members whose workbooks
// overlap (team-workbooks.ts). Every member's runner is a process of its own, loaded first and
// started at one moment: cold, all at once. Then a few members again in new processes against
// the warm gateway (from their saved cache file without its series, from the whole file, and
// with an empty engine), then the members'
// own requests replayed for a while against the warm gateway (throughput and latency), on
// PGlite and, where the machine has it, on Postgres.
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../src/core/environment";
import { startTestPostgres } from "../test/gateway/support/postgres";
import {
  callLatencyMs,
  largestCallCodes,
  OPERATIONS,
  rateLimitBoundMs,
  zeroCalls,
  type CallCounts,
} from "./bounds";
import { CallLog } from "./call-log";
import { pinClock } from "./clock";
import type { BenchConfig } from "./config";
import { startBenchEmulator, type EmulatorProcess } from "./emulator-host";
import { describeGroupExcess, groupExcess } from "./group-check";
import { describeMachine } from "./machine";
import { median } from "./memory-budget";
import type { BenchResults, WorkloadResult } from "./results";
import { countersBetween, readCatalog, readCounters, resetCounters, type ServiceCounters } from "./service";
import { startGatewayProcess, type GatewayProcess } from "./team-gateway-host";
import { fetchAnswersAlone } from "./team-answers-alone";
import { writeCatalogOnlyCache } from "./team-cache-file";
import { replayOnce, runLoad, summarizeLoad, type LoadMember } from "./team-load";
import { spawnMember } from "./team-member-host";
import type { MemberReport, TeamMemberSettings } from "./team-member-run";
import { TEAM_PREFIX, type GatewayLoad, type TeamFigures, type WarmComparison } from "./team-results";
import { generateTeamWorkbooks, teamBound, teamKeys, type MemberWorkbook } from "./team-workbooks";

/** Members measured warm, one after another (each three times, in new processes). */
export const WARM_MEMBERS = 3;

export interface TeamRun {
  workload: WorkloadResult | null;
  failures: BenchResults["failures"];
}

interface Team {
  config: BenchConfig;
  log: Logger;
  emulator: EmulatorProcess;
  clockOffsetMs: number;
  folder: string;
  password: string;
  members: MemberWorkbook[];
}

export async function runTeamWorkload(config: BenchConfig, log: Logger): Promise<TeamRun> {
  const started = performance.now();
  const folder = path.join(config.outDir, "team");
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  const clock = pinClock();
  const emulator = await startBenchEmulator(config, clock);
  const failures: BenchResults["failures"] = [];
  const fail = (workload: string, error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    log("error", `${workload} failed: ${message}`);
    failures.push({ workload, error: message.split("\n").slice(0, 4).join(" ") });
  };
  let gateway: GatewayProcess | undefined;
  try {
    const service = {
      baseUrl: emulator.url,
      authUrl: emulator.url,
      username: emulator.username,
      password: emulator.password,
    };
    const catalog = await readCatalog(service);
    const byCode = new Map(catalog.map((series) => [series.code, series]));
    const { members } = generateTeamWorkbooks(
      catalog,
      config.teamMembers,
      config.teamFormulas,
      config.seed + 70,
    );
    const keys = teamKeys(members, byCode);
    const bound = teamBound(members, byCode, config.shape);
    for (const member of members) {
      await writeFile(
        formulasFile(folder, member.email),
        `${member.formulas.map((f) => f.text).join("\n")}\n`,
      );
    }
    const team: Team = {
      config,
      log,
      emulator,
      clockOffsetMs: clock.offsetMs,
      folder,
      password: randomBytes(12).toString("hex"),
      members,
    };
    await resetCounters(emulator.url);
    gateway = await startGatewayProcess(gatewaySettings(team, "memory://"));

    log("info", `W7: ${members.length} members cold, all at once through the gateway`);
    const cpuBefore = await gateway.usage();
    const before = await readCounters(emulator.url);
    const cold = await runMembers(team, gateway.url, members, { passes: 1, cache: "save" });
    const coldCounters = countersBetween(before, await readCounters(emulator.url));
    const cpuAfter = await gateway.usage();
    // Every call so far was the cold run's: the gateway was fresh.
    const upstream = await gateway.upstreamCalls();
    const notes = coldNotes(cold.reports, cold.goAt);
    notes.push(
      `the gateway's calls to the service: ${CallLog.summary(upstream.calls, cold.goAt - upstream.originAt)}`,
    );
    const excess = groupExcess(upstream.calls, bound, byCode);
    if (excess.length > 0) notes.push(describeGroupExcess(excess));

    log("info", "W7: warm members through the gateway and from their saved caches");
    const warmBefore = await readCounters(emulator.url);
    const warm: WarmComparison[] = [];
    for (const member of members.slice(0, WARM_MEMBERS)) {
      try {
        warm.push(await warmComparison(team, gateway.url, member));
      } catch (error) {
        fail(`${TEAM_PREFIX} warm ${member.email}`, error);
      }
    }
    const warmUpstreamDataCalls = dataCallsOf(countersBetween(warmBefore, await readCounters(emulator.url)));

    const loadMembers: LoadMember[] = cold.reports.map((report) => ({
      email: report.member,
      paths: report.dataPaths,
    }));
    const loads: GatewayLoad[] = [];
    const skipped: string[] = [];
    try {
      log("info", "W7: the members' requests against the warm gateway (PGlite)");
      loads.push(await measureLoad(team, gateway, "PGlite", loadMembers));
    } catch (error) {
      fail(`${TEAM_PREFIX} load PGlite`, error);
    }
    await gateway.close();
    gateway = undefined;
    try {
      const postgres = await loadOnPostgres(team, loadMembers, skipped);
      if (postgres !== null) loads.push(postgres);
    } catch (error) {
      fail(`${TEAM_PREFIX} load Postgres`, error);
    }

    const memberCalls = zeroCalls();
    for (const report of cold.reports) {
      for (const operation of OPERATIONS) memberCalls[operation] += report.passes[0]?.http[operation] ?? 0;
    }
    const passEnds = cold.reports.map((report) => (report.passes[0]?.endedAt ?? cold.goAt) - cold.goAt);
    const cellErrors = cold.reports.reduce((sum, report) => sum + (report.passes[0]?.cellErrors ?? 0), 0);
    const figures: TeamFigures = {
      measuredAt: new Date().toISOString(),
      durationMs: performance.now() - started,
      machine: describeMachine(),
      members: members.length,
      formulasPerMember: config.teamFormulas,
      sharedKeys: keys.sharedByAll,
      ownKeysPerMember: keys.ownPerMember,
      memberCalls,
      upstreamRefused: upstream.calls.filter(
        (call) =>
          (call.operation === "series_values" || call.operation === "series_hist") && call.status === 429,
      ).length,
      memberPassMs: passEnds,
      warm,
      warmUpstreamDataCalls,
      loads,
      skipped,
    };
    const latency = { baseMs: config.latencyMs, perCodeMs: config.latencyPerCodeMs };
    const workload: WorkloadResult = {
      id: TEAM_PREFIX,
      title: `a team of ${members.length} through the gateway, cold, all at once`,
      formulas: members.reduce((sum, member) => sum + member.formulas.length, 0),
      distinctKeys: keys.union.length,
      composition: null,
      calls: coldCounters.calls,
      runnerCalls: null,
      callsBound: bound.calls,
      dataRequests: coldCounters.dataRequests,
      dataRequestsBound: bound.dataRequests,
      wallMs: Math.max(0, ...passEnds),
      rateLimitBoundMs: rateLimitBoundMs(bound.calls, callLatencyMs(latency, largestCallCodes(bound))),
      cpuMsPerCachedFormula: null,
      warmMsPerFormula: null,
      peakRssMiB: cpuAfter.maxRssMiB,
      rssGrowthMiB: null,
      cpuMs: cpuAfter.cpuMs - cpuBefore.cpuMs,
      cellErrors,
      naive: null,
      team: figures,
      notes,
    };
    return { workload, failures };
  } catch (error) {
    fail(TEAM_PREFIX, error);
    return { workload: null, failures };
  } finally {
    await gateway?.close();
    await emulator.close();
  }
}

function formulasFile(folder: string, email: string): string {
  return path.join(folder, `${email}.formulas.txt`);
}

function cacheFile(folder: string, email: string): string {
  return path.join(folder, `${email}.cache.json`);
}

function catalogsFile(folder: string, email: string): string {
  return path.join(folder, `${email}.catalogs.cache.json`);
}

function gatewaySettings(team: Team, database: string) {
  return {
    upstream: { url: team.emulator.url, username: team.emulator.username, password: team.emulator.password },
    database,
    clockOffsetMs: team.clockOffsetMs,
    members: team.members.map((member) => member.email),
    memberPassword: team.password,
  };
}

function dataCallsOf(counters: ServiceCounters): number {
  return counters.calls.series_values + counters.calls.series_hist;
}

/**
 * Runs the members' runners, each in a process of its own: all are loaded first, then
 * started together. cache "save": each saves its cache file; "load": starts from it (and
 * saves it again); "catalogs": starts from its catalog-only copy; "none": empty storage.
 */
async function runMembers(
  team: Team,
  gatewayUrl: string,
  members: readonly MemberWorkbook[],
  options: { passes: number; cache: "save" | "load" | "catalogs" | "none" },
): Promise<{ goAt: number; reports: MemberReport[] }> {
  const cacheOf = (email: string): string | null => {
    if (options.cache === "none") return null;
    return options.cache === "catalogs" ? catalogsFile(team.folder, email) : cacheFile(team.folder, email);
  };
  const processes = members.map((member) => {
    const settings: TeamMemberSettings = {
      formulasFile: formulasFile(team.folder, member.email),
      cacheFile: cacheOf(member.email),
      passes: options.passes,
      clockOffsetMs: team.clockOffsetMs,
      gatewayUrl,
      username: member.email,
      timeoutMs: team.config.passTimeoutMs,
    };
    return spawnMember(settings, team.password);
  });
  await Promise.all(processes.map((member) => member.ready));
  const goAt = Date.now();
  for (const member of processes) member.go();
  const reports = await Promise.all(processes.map((member) => member.report));
  for (const report of reports) {
    if (report.signInError !== null)
      throw new Error(`${report.member} could not sign in: ${report.signInError}`);
    if (!report.settled) throw new Error(`${report.member}'s run did not settle within its timeout`);
  }
  return { goAt, reports };
}

/**
 * One member in new processes against the warm gateway: from its saved cache file without the
 * series (series via the gateway), the data calls that runner sent fetched again with no
 * engine, from the whole file (series local), and with an empty engine (catalogs and series
 * via the gateway, then a second pass from the engine's cache).
 */
async function warmComparison(
  team: Team,
  gatewayUrl: string,
  member: MemberWorkbook,
): Promise<WarmComparison> {
  // Made before the runs below: the run from the saved file writes that file again.
  await writeCatalogOnlyCache(cacheFile(team.folder, member.email), catalogsFile(team.folder, member.email));
  const catalogs = (await runMembers(team, gatewayUrl, [member], { passes: 1, cache: "catalogs" }))
    .reports[0];
  const alone =
    catalogs === undefined
      ? undefined
      : await fetchAnswersAlone(
          { gatewayUrl, username: member.email, paths: catalogs.dataPaths },
          team.password,
        );
  if (alone !== undefined && alone.failed > 0) {
    throw new Error(`${member.email}'s answers fetched alone: ${alone.failed} of ${alone.calls} failed`);
  }
  const saved = (await runMembers(team, gatewayUrl, [member], { passes: 1, cache: "load" })).reports[0];
  const empty = (await runMembers(team, gatewayUrl, [member], { passes: 2, cache: "none" })).reports[0];
  const [first, second] = empty?.passes ?? [];
  const fromCatalogs = catalogs?.passes[0];
  const fromCache = saved?.passes[0];
  if (
    empty === undefined ||
    saved === undefined ||
    first === undefined ||
    second === undefined ||
    fromCache === undefined ||
    fromCatalogs === undefined
  ) {
    throw new Error(`${member.email}'s warm runs reported no passes`);
  }
  // The comparison is of series alone: neither runner may read a catalog, the local one no series.
  if (fromCatalogs.http.series_info + fromCache.http.series_info > 0) {
    throw new Error(
      `${member.email}'s runners started from cache files read Series Info (${fromCatalogs.http.series_info} from the catalogs, ${fromCache.http.series_info} from the saved cache)`,
    );
  }
  const localDataCalls = fromCache.http.series_values + fromCache.http.series_hist;
  if (localDataCalls > 0) {
    throw new Error(`${member.email}'s runner from the saved cache sent ${localDataCalls} data calls`);
  }
  return {
    member: member.email,
    formulas: member.formulas.length,
    fromCatalogsPassMs: fromCatalogs.ms,
    fromSavedCachePassMs: fromCache.ms,
    fromCatalogsDataCalls: fromCatalogs.http.series_values + fromCatalogs.http.series_hist,
    answersAloneMs: alone?.ms,
    answersAloneCharacters: alone?.characters,
    gatewayPassMs: first.ms,
    localPassMs: second.ms,
    gatewaySessionMs: empty.signInMs + first.ms,
    localSessionMs: saved.signInMs + fromCache.ms,
    gatewayDataCalls: first.http.series_values + first.http.series_hist,
    cellErrors: first.cellErrors + second.cellErrors + fromCache.cellErrors + fromCatalogs.cellErrors,
  };
}

/** The members' requests for team.config.teamLoadMs against a gateway that keeps them all. */
async function measureLoad(
  team: Team,
  gateway: GatewayProcess,
  store: string,
  members: readonly LoadMember[],
): Promise<GatewayLoad> {
  const options = { gatewayUrl: gateway.url, members, password: team.password };
  // One round first: whatever is not kept yet is bought here, and the code paths are warm.
  const fill = await replayOnce(options);
  if (fill.errors > 0) throw new Error(`${fill.errors} of the ${store} gateway's answers were not 200`);
  const before = await readCounters(team.emulator.url);
  const cpuBefore = await gateway.usage();
  const sample = await runLoad({ ...options, durationMs: team.config.teamLoadMs });
  const cpuAfter = await gateway.usage();
  const upstream = countersBetween(before, await readCounters(team.emulator.url));
  const summary = summarizeLoad(sample);
  return {
    store,
    concurrency: members.filter((member) => member.paths.length > 0).length,
    ...summary,
    gatewayCpuMsPerRequest:
      summary.requests > 0 ? (cpuAfter.cpuMs - cpuBefore.cpuMs) / summary.requests : null,
    upstreamDataCalls: dataCallsOf(upstream),
  };
}

/** The load on a fresh gateway over a fresh Postgres database; null (and a note) without Postgres. */
async function loadOnPostgres(
  team: Team,
  members: readonly LoadMember[],
  skipped: string[],
): Promise<GatewayLoad | null> {
  let postgres;
  try {
    postgres = await startTestPostgres();
  } catch (error) {
    skipped.push(`Postgres: not measured, it could not be prepared (${withoutSecrets(error)})`);
    return null;
  }
  if (postgres === null) {
    skipped.push("Postgres: not measured, Debian's postgresql is not installed on this machine");
    return null;
  }
  try {
    team.log("info", "W7: the members' requests against a gateway on Postgres");
    const gateway = await startGatewayProcess(gatewaySettings(team, postgres.url));
    try {
      return await measureLoad(team, gateway, "Postgres", members);
    } finally {
      await gateway.close();
    }
  } finally {
    await postgres.drop();
  }
}

/** An error's first line with any password in an SQL statement or URL masked. */
function withoutSecrets(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
  return text.replace(/password\s+'[^']*'/gi, "password '***'").replace(/\/\/([^:/@]+):[^@]*@/g, "//$1:***@");
}

function coldNotes(reports: readonly MemberReport[], goAt: number): string[] {
  const notes: string[] = [];
  const firstCalls = reports.flatMap((report) =>
    report.firstDataCallAt === null ? [] : [report.firstDataCallAt - goAt],
  );
  if (firstCalls.length > 0) {
    notes.push(
      `the members' first data calls left from ${Math.min(...firstCalls)} ms to ${Math.max(...firstCalls)} ms after the common start (after each member's sign-in and Series Info)`,
    );
  }
  const slowest = [...reports].sort((a, b) => (b.passes[0]?.endedAt ?? 0) - (a.passes[0]?.endedAt ?? 0))[0];
  const passMs = reports.map((report) => report.passes[0]?.ms ?? 0);
  notes.push(
    `members' cold passes (sign-in excluded): median ${median(passMs).toFixed(0)} ms, slowest ${Math.max(...passMs).toFixed(0)} ms (${slowest?.member ?? "none"}); each member's runner sent the gateway ${reports.map((report) => callsText(report.passes[0]?.http)).join("; ")}`,
  );
  for (const report of reports) {
    const error = report.passes[0]?.firstError;
    if (error !== null && error !== undefined) {
      notes.push(
        `${report.member}: ${report.passes[0]?.cellErrors ?? 0} cells ended in an error, e.g. ${error}`,
      );
    }
  }
  return notes;
}

function callsText(calls: CallCounts | undefined): string {
  if (calls === undefined) return "no pass";
  return `${calls.series_values} values + ${calls.series_hist} history calls`;
}
