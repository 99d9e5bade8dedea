// The gateway's throughput from its store: every member signs in, then one loop per member
// sends that member's own data requests (the paths its engine sent in W7's cold run) again and
// again for a fixed time, each answer read in full. Latency is a member's view: from sending a
// request to the last byte of its answer.

export interface LoadMember {
  email: string;
  /** Paths under the gateway's address (/api/<product>/v1/export/...). */
  paths: readonly string[];
}

export interface LoadOptions {
  gatewayUrl: string;
  members: readonly LoadMember[];
  password: string;
  durationMs: number;
}

export interface LoadSample {
  latenciesMs: number[];
  errors: number;
  /** Series records in the answers of each member's first round (later rounds are not parsed). */
  records: number;
  /** Answers whose records were counted. */
  counted: number;
  wallMs: number;
}

export interface LoadSummary {
  requests: number;
  errors: number;
  wallMs: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  recordsPerRequest: number;
}

/** The nearest-rank percentile (p in 0..100) of the values; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export function summarizeLoad(sample: LoadSample): LoadSummary {
  const requests = sample.latenciesMs.length;
  return {
    requests,
    errors: sample.errors,
    wallMs: sample.wallMs,
    perSecond: sample.wallMs > 0 ? (requests / sample.wallMs) * 1000 : 0,
    p50Ms: percentile(sample.latenciesMs, 50),
    p99Ms: percentile(sample.latenciesMs, 99),
    recordsPerRequest: sample.counted > 0 ? sample.records / sample.counted : 0,
  };
}

/** A member's token from the gateway's sign-in (the service's own request shape). */
export async function signInMember(gatewayUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${gatewayUrl}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: email, password }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; message?: unknown };
  if (!response.ok || typeof body.access_token !== "string") {
    throw new Error(
      `The gateway refused ${email}'s sign-in with HTTP ${response.status}: ${String(body.message ?? "")}`,
    );
  }
  return body.access_token;
}

/** Sends each member's paths once, one at a time per member, all members together. */
export async function replayOnce(options: Omit<LoadOptions, "durationMs">): Promise<LoadSample> {
  return drive(options, null);
}

/** Sends each member's paths in turn until durationMs has passed. */
export async function runLoad(options: LoadOptions): Promise<LoadSample> {
  return drive(options, options.durationMs);
}

/** Signs the members in, then sends: each path once (durationMs null) or for durationMs. */
async function drive(
  options: Omit<LoadOptions, "durationMs">,
  durationMs: number | null,
): Promise<LoadSample> {
  const members = options.members.filter((member) => member.paths.length > 0);
  const tokens = await Promise.all(
    members.map((member) => signInMember(options.gatewayUrl, member.email, options.password)),
  );
  const sample: LoadSample = { latenciesMs: [], errors: 0, records: 0, counted: 0, wallMs: 0 };
  const started = performance.now();
  const goOn = (sent: number, pathCount: number): boolean =>
    durationMs === null ? sent < pathCount : performance.now() - started < durationMs;
  await Promise.all(
    members.map(async (member, index) => {
      const headers = { authorization: `Bearer ${tokens[index] ?? ""}` };
      for (let sent = 0; goOn(sent, member.paths.length); sent += 1) {
        const path = member.paths[sent % member.paths.length] as string;
        const requestStart = performance.now();
        try {
          const response = await fetch(`${options.gatewayUrl}${path}`, { headers });
          const text = await response.text();
          sample.latenciesMs.push(performance.now() - requestStart);
          if (response.status !== 200) sample.errors += 1;
          else if (sent < member.paths.length) {
            // Parsing every answer would load the generator, which shares the machine.
            sample.records += recordCount(text);
            sample.counted += 1;
          }
        } catch {
          sample.latenciesMs.push(performance.now() - requestStart);
          sample.errors += 1;
        }
      }
    }),
  );
  sample.wallMs = performance.now() - started;
  return sample;
}

function recordCount(body: string): number {
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? parsed.length : 0;
  } catch {
    return 0;
  }
}
