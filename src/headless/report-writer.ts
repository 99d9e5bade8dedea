// Writes the runner's report as the passes end, so a run holds at most one pass's results
// (a 100,000-formula workbook recalculated several times would otherwise keep every
// pass's tables until the end). The text is exactly reportJson's / reportText's
// (report-format.ts), written in chunks.
import type { RunReport } from "./run-workbook";
import type { PassReport } from "./run-pass";
import { jsonPassFields, textOfPass, textOfRefresh } from "./report-format";

/** Output is handed on in pieces of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

export class ReportWriter {
  private started = false;
  private passes = 0;
  private buffered: string[] = [];
  private bufferedChars = 0;

  constructor(
    private readonly write: (chunk: string) => void,
    private readonly json: boolean,
  ) {}

  /** Writes one pass (the report so far carries the refresh summary, written first in text). */
  pass(pass: PassReport, report: Pick<RunReport, "refresh">): void {
    this.start(report);
    this.passes += 1;
    if (this.json) {
      if (this.passes > 1) this.put(",");
      this.put('{"results":[');
      pass.results.forEach((result, index) => this.put(`${index > 0 ? "," : ""}${JSON.stringify(result)}`));
      this.put(`],${jsonPassFields(pass)}}`);
    } else {
      for (const line of textOfPass(pass, this.passes - 1)) this.put(`${line}\n`);
    }
    this.flush();
  }

  /** Ends the document (and writes its start when no pass ran). */
  end(report: Pick<RunReport, "refresh">): void {
    this.start(report);
    if (this.json) {
      this.put(`]${report.refresh ? `,"refresh":${JSON.stringify(report.refresh)}` : ""}}\n`);
    } else if (this.passes === 0 && !report.refresh) {
      this.put("\n");
    }
    this.flush();
  }

  private start(report: Pick<RunReport, "refresh">): void {
    if (this.started) return;
    this.started = true;
    if (this.json) this.put('{"passes":[');
    else for (const line of textOfRefresh(report.refresh)) this.put(`${line}\n`);
  }

  private put(text: string): void {
    this.buffered.push(text);
    this.bufferedChars += text.length;
    if (this.bufferedChars >= CHUNK_CHARS) this.flush();
  }

  private flush(): void {
    if (this.buffered.length === 0) return;
    this.write(this.buffered.join(""));
    this.buffered = [];
    this.bufferedChars = 0;
  }
}
