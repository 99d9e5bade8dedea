// `npm run recalc`: evaluates PCD formulas headlessly. stdout carries only the report (one
// JSON document with --json); logs go to stderr. Exit 0 when the run finished (cell errors
// included), 1 on an unexpected failure, 2 for usage errors (and --help's 0), 3 when the
// run did not finish within --timeout (what did not finish is listed on stderr).
import { readFile } from "node:fs/promises";
import { checkCacheFile } from "./cache-file";
import { USAGE, UsageError, formulasOfFile, parseCliArgs, type CliOptions } from "./cli-args";
import { ReportWriter } from "./report-writer";
import { runWorkbook, type RunReport } from "./run-workbook";
import { escapeControls } from "./terminal-text";

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_STUCK = 3;

async function main(argv: readonly string[]): Promise<number> {
  let options: CliOptions;
  let formulas: string[];
  try {
    options = parseCliArgs(argv, process.env);
    if (options.help) {
      await write(process.stdout, `${USAGE}\n`);
      return EXIT_OK;
    }
    formulas =
      options.file === undefined ? options.formulas : formulasOfFile(await readFormulaFile(options.file));
    if (options.cacheFile !== undefined) await checkCache(options.cacheFile);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    await write(process.stderr, `${escapeControls(error.message)}\n\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  // Each pass is written as it ends: a long run never holds every pass's tables.
  const writer = new ReportWriter(options.json ? "json" : "text", (chunk) => write(process.stdout, chunk));
  const report = await runWorkbook({ ...options, formulas, onPass: writer.onPass });
  await writer.finish(report);
  if (!report.settled) {
    await write(process.stderr, `Did not finish within the timeout:\n${unfinished(report)}\n`);
    return EXIT_STUCK;
  }
  return EXIT_OK;
}

function unfinished(report: RunReport): string {
  if (report.signIn.timedOut) return "  signing in";
  if (report.refresh?.timedOut) return "  refresh all";
  const stuck = report.passes.flatMap((pass) => pass.stuck ?? []);
  return stuck.map((formula) => `  ${escapeControls(formula)}`).join("\n");
}

async function readFormulaFile(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read --file ${file}: ${(error as Error).message}`);
  }
}

async function checkCache(file: string): Promise<void> {
  try {
    await checkCacheFile(file);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * Writes and waits until the stream has handed everything to the OS. On a pipe, stdout is
 * asynchronous: exiting right after write() would cut the output at the pipe's buffer.
 */
function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

// The exit code is set, and the process ends only once stdout and stderr are drained.
// It then exits even if abandoned calls (a timed-out run's) still hold sockets or timers:
// --timeout bounds the process, not only the report.
main(process.argv.slice(2))
  .catch(async (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    await write(process.stderr, `recalc failed: ${escapeControls(message)}\n`);
    return EXIT_FAILURE;
  })
  .then((code) => {
    process.exitCode = code;
    process.exit();
  });
