// Writes the runner's report as the run goes: each pass leaves as it ends (runWorkbook's
// onPass), so a long run of a large workbook holds one pass's results at a time instead
// of every pass's tables until the end. What it writes is exactly reportJson / reportText
// of the whole report (report-format.ts).
import { jsonHead, jsonPass, jsonTail, textHead, textPass, textTail } from "./report-format";
import type { PassReport } from "./run-pass";
import type { RunReport } from "./run-workbook";
import { terminalSafeJson } from "./terminal-text";

export type ReportFormat = "json" | "text";

export class ReportWriter {
  private passes = 0;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly format: ReportFormat,
    private readonly write: (chunk: string) => Promise<void>,
  ) {}

  /** runWorkbook's onPass: writes the pass (after the report's beginning, for the first). */
  readonly onPass = (pass: PassReport, report: RunReport): void => {
    const before = this.passes === 0 ? this.head(report) : this.format === "json" ? "," : "";
    const body =
      this.format === "json"
        ? terminalSafeJson(jsonPass(pass))
        : textPass(pass, this.passes, report.throughGateway === true);
    this.passes += 1;
    this.enqueue(before + body);
  };

  /** Writes the report's end (and its beginning when no pass ran); resolves once all is written. */
  async finish(report: RunReport): Promise<void> {
    if (this.passes === 0) this.enqueue(this.head(report));
    // JSON: the tail object's fields, after the passes' closing bracket.
    this.enqueue(
      this.format === "json" ? `],${terminalSafeJson(jsonTail(report)).slice(1)}\n` : textTail(report),
    );
    await this.pending;
  }

  private head(report: RunReport): string {
    // JSON: the head object's fields, left open for the passes.
    return this.format === "json"
      ? `${terminalSafeJson(jsonHead(report)).slice(0, -1)},"passes":[`
      : textHead(report);
  }

  private enqueue(chunk: string): void {
    this.pending = this.pending.then(() => this.write(chunk));
  }
}
