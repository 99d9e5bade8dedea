// `npm run recalc`: evaluates PCD formulas headlessly. stdout carries only the report (one
// JSON document with --json); logs go to stderr. Exit 0 when every pass settled (cell
// errors included), 2 for usage errors, 3 when a pass did not settle (the stuck formulas
// are listed on stderr).
import { readFile } from "node:fs/promises";
import { USAGE, UsageError, formulasOfFile, parseCliArgs, type CliOptions } from "./cli-args";
import { ReportWriter } from "./report-writer";
import { runWorkbook } from "./run-workbook";

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_STUCK = 3;

async function main(argv: readonly string[]): Promise<number> {
  let options: CliOptions;
  let formulas: string[];
  try {
    options = parseCliArgs(argv, process.env);
    formulas =
      options.file === undefined ? options.formulas : formulasOfFile(await readFormulaFile(options.file));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  // Each pass is written as it ends, so the run never holds every pass's results.
  const writer = new ReportWriter((chunk) => process.stdout.write(chunk), options.json);
  const report = await runWorkbook({
    ...options,
    formulas,
    onPass: (pass, sofar) => writer.pass(pass, sofar),
  });
  writer.end(report);
  if (!report.settled) {
    const stuck = report.passes.flatMap((pass) => pass.stuck ?? []);
    process.stderr.write(`Did not settle within the timeout:\n${stuck.map((f) => `  ${f}`).join("\n")}\n`);
    return EXIT_STUCK;
  }
  return EXIT_OK;
}

async function readFormulaFile(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read --file ${file}: ${(error as Error).message}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`recalc failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(EXIT_FAILURE);
  },
);
