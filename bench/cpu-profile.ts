// A CPU profile of a step through the inspector's sampling Profiler (what `node --cpu-prof`
// records), summarised as the functions with the most self time. W5 prints the top entries
// per size, so a regression in the per-cell path names itself.
import { Session } from "node:inspector/promises";
import path from "node:path";

export interface ProfileEntry {
  /**
   * "function (file)", or the V8 pseudo-node ("(garbage collector)", "(program)"). No line:
   * under tsx the profile's lines are those of the transpiled module, not of the source.
   */
  name: string;
  selfMs: number;
  /** Share of the profile's sampled time. */
  percent: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

const ROOT = path.join(__dirname, "..");

export class CpuProfiler {
  private readonly session = new Session();

  static async start(): Promise<CpuProfiler> {
    const profiler = new CpuProfiler();
    profiler.session.connect();
    await profiler.session.post("Profiler.enable");
    // 1 ms sampling (the default is 1 ms on Linux too): cheap enough to leave on for a pass.
    await profiler.session.post("Profiler.setSamplingInterval", { interval: 1000 });
    await profiler.session.post("Profiler.start");
    return profiler;
  }

  /** Stops profiling and returns the top `count` functions by self time ("(idle)" left out). */
  async stop(count = 8): Promise<ProfileEntry[]> {
    const { profile } = (await this.session.post("Profiler.stop")) as { profile: Profile };
    await this.session.post("Profiler.disable");
    this.session.disconnect();
    return summarise(profile, count);
  }
}

export function summarise(profile: Profile, count: number): ProfileEntry[] {
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the gap to the next sample.
  for (let index = 0; index < samples.length; index += 1) {
    const node = samples[index] as number;
    const next = deltas[index + 1] ?? 0;
    selfUs.set(node, (selfUs.get(node) ?? 0) + Math.max(0, next));
  }
  const byName = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (us === 0) continue;
    const name = describe(node);
    if (name === "(idle)") continue;
    total += us;
    byName.set(name, (byName.get(name) ?? 0) + us);
  }
  return [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, selfMs: us / 1000, percent: total > 0 ? (100 * us) / total : 0 }));
}

function describe(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (url === "") return functionName === "" ? "(anonymous)" : functionName;
  const file = url.replace(/^file:\/\//, "");
  const relative = file.startsWith(ROOT) ? path.relative(ROOT, file) : file.replace(/^.*node_modules\//, "");
  return `${functionName === "" ? "(anonymous)" : functionName} (${relative})`;
}
