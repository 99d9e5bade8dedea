// W7's floor for a warm pass through the gateway: the data calls a member's runner sent (from
// its catalogs), sent again by a process with no engine, each answer read and parsed as JSON,
// all at once. What that takes is time no engine can save, so it says how close to the saved
// cache a pass via the gateway can come on this machine. Spawned by team-answers-alone.ts with
// its settings as JSON in BENCH_TEAM_ANSWERS and the password in PCD_PASSWORD; signs in first
// (Node's fetch is then loaded and connected, as in a runner that has signed in), then prints
// one JSON line.

export interface AnswersAloneSettings {
  gatewayUrl: string;
  username: string;
  /** The data calls' paths under the gateway (/api/...). */
  paths: string[];
}

export interface AnswersAloneReport {
  /** From the first call sent to the last answer parsed. */
  ms: number;
  calls: number;
  /** Characters of the answers' text, all together. */
  characters: number;
  /** Answers other than 200. */
  failed: number;
}

function settingsFromEnvironment(): { settings: AnswersAloneSettings; password: string } {
  const text = process.env.BENCH_TEAM_ANSWERS;
  const password = process.env.PCD_PASSWORD;
  if (text === undefined || text === "" || password === undefined || password === "") {
    throw new Error("team-answers-alone-run needs BENCH_TEAM_ANSWERS and PCD_PASSWORD");
  }
  return { settings: JSON.parse(text) as AnswersAloneSettings, password };
}

async function signIn(settings: AnswersAloneSettings, password: string): Promise<string> {
  const response = await fetch(`${settings.gatewayUrl}/auth/access_token/v1`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: settings.username, password }),
  });
  const body = (await response.json()) as { access_token?: unknown };
  if (!response.ok || typeof body.access_token !== "string") {
    throw new Error(`sign-in as ${settings.username} answered ${response.status}`);
  }
  return body.access_token;
}

async function main(): Promise<void> {
  const { settings, password } = settingsFromEnvironment();
  const token = await signIn(settings, password);
  let characters = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    settings.paths.map(async (path) => {
      const response = await fetch(`${settings.gatewayUrl}${path}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const text = await response.text();
      characters += text.length;
      if (response.status === 200) JSON.parse(text);
      else failed += 1;
    }),
  );
  const report: AnswersAloneReport = {
    ms: performance.now() - started,
    calls: settings.paths.length,
    characters,
    failed,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `team-answers-alone-run failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});
