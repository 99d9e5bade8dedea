// Runs team-answers-alone-run.ts in a new process and reads its report.
import { execFile } from "node:child_process";
import path from "node:path";
import type { AnswersAloneReport, AnswersAloneSettings } from "./team-answers-alone-run";

const SCRIPT = path.join(__dirname, "team-answers-alone-run.ts");

export function fetchAnswersAlone(
  settings: AnswersAloneSettings,
  password: string,
  timeoutMs = 60_000,
): Promise<AnswersAloneReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", SCRIPT],
      {
        cwd: path.join(__dirname, ".."),
        env: { ...process.env, BENCH_TEAM_ANSWERS: JSON.stringify(settings), PCD_PASSWORD: password },
        timeout: timeoutMs,
      },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`The answers alone for ${settings.username}: ${stderr.trim() || error.message}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as AnswersAloneReport);
        } catch {
          reject(
            new Error(
              `The answers alone for ${settings.username} printed no report: ${stdout.slice(0, 200)}`,
            ),
          );
        }
      },
    );
  });
}
