// The runner's outputs: the JSON document of --json (one document, exactly the documented
// shape: docs/formulas.md) and a readable text table otherwise. Both name the environment
// (live or sandbox values). Text from the service or a file is printed with its control
// characters escaped (terminal-text.ts), in both.
import type { CellOutput, OutputScalar, OutputValue } from "./cell-output";
import type { PassReport } from "./run-pass";
import type { RunReport } from "./run-workbook";
import { escapeControls, terminalSafeJson } from "./terminal-text";
import type { Usage } from "./usage-meter";

export function reportJson(report: RunReport): string {
  const document: Record<string, unknown> = {
    ...jsonHead(report),
    passes: report.passes.map(jsonPass),
    ...jsonTail(report),
  };
  return terminalSafeJson(document);
}

/** The document's fields before the passes (known once sign-in and refresh are done). */
export function jsonHead(report: RunReport): Record<string, unknown> {
  return {
    environment: report.environment,
    ...(report.throughGateway ? { throughGateway: true } : {}),
    signIn: report.signIn,
    ...(report.refresh ? { refresh: report.refresh } : {}),
  };
}

/** One pass as the document shows it. */
export function jsonPass(pass: PassReport): Record<string, unknown> {
  return {
    results: pass.results,
    http: pass.http,
    dataRequests: pass.dataRequests,
    dataRequestsUnconfirmed: pass.dataRequestsUnconfirmed,
    ms: pass.ms,
    ...(pass.stuck ? { stuck: pass.stuck } : {}),
  };
}

/** The document's fields after the passes (known at the end of the run). */
export function jsonTail(report: RunReport): Record<string, unknown> {
  return { total: report.total, settled: report.settled };
}

export function reportText(report: RunReport): string {
  return [
    textHead(report),
    ...report.passes.map((pass, index) => textPass(pass, index, report.throughGateway === true)),
    textTail(report),
  ].join("");
}

/** The sign-in and refresh lines. */
export function textHead(report: RunReport): string {
  const lines: string[] = [];
  lines.push(
    `Environment: ${report.environment === "sandbox" ? "sandbox (test values, not live data)" : "live"}`,
  );
  if (report.throughGateway) lines.push(GATEWAY_LINE);
  lines.push(`Sign-in: ${phaseLine(report.signIn, report.throughGateway === true)}`);
  if (report.signIn.error) lines.push(`  ${report.signIn.error}`);
  if (report.refresh) {
    const r = report.refresh;
    lines.push(`Refresh: ${phaseLine(r, report.throughGateway === true)}`);
    if (r.updated !== undefined) {
      lines.push(
        `  ${r.updated} updated, ${r.revised ?? 0} revised, ${r.unchanged ?? 0} unchanged, ${r.failed ?? 0} failed.`,
      );
    }
    if (r.error) lines.push(`  failed: ${r.error}`);
    for (const failure of r.failures ?? []) lines.push(`  failed ${failure.code}: ${failure.message}`);
  }
  return textLines(lines);
}

/** One pass: its line, then each formula with its result. */
export function textPass(pass: PassReport, index: number, throughGateway: boolean): string {
  const lines: string[] = [];
  lines.push(
    `Pass ${index + 1}: ${phaseLine({ ...pass, timedOut: pass.stuck ? true : undefined }, throughGateway)}`,
  );
  for (const result of pass.results) {
    lines.push(`${result.formula}`);
    lines.push(...indent(describeOutput(result)));
  }
  if (pass.stuck) lines.push(`Did not settle: ${pass.stuck.join("  ")}`);
  return textLines(lines);
}

/** The total line. */
export function textTail(report: RunReport): string {
  return textLines([`Total: ${phaseLine(report.total, report.throughGateway === true)}`]);
}

function textLines(lines: string[]): string {
  return `${lines.map(escapeControls).join("\n")}\n`;
}

/**
 * Through a team gateway an answered code may have cost the team nothing (the gateway serves
 * what it keeps), so the counts are named for what they are, and where the charge is told.
 */
const GATEWAY_LINE =
  "Through a team gateway: requests answered are the codes it served, kept or bought; what the team was charged is in the gateway's usage report.";

/**
 * "167 ms; HTTP calls: access_token 0, ...; data requests: 1 (+2 sent without an answer); timed
 * out", with "requests answered" for "data requests" through a team gateway.
 */
function phaseLine(phase: Usage & { ms: number; timedOut?: true }, throughGateway: boolean): string {
  const calls = Object.entries(phase.http)
    .map(([operation, count]) => `${operation} ${count}`)
    .join(", ");
  const unconfirmed =
    phase.dataRequestsUnconfirmed > 0 ? ` (+${phase.dataRequestsUnconfirmed} sent without an answer)` : "";
  const timedOut = phase.timedOut ? "; timed out" : "";
  const counted = throughGateway ? "requests answered" : "data requests";
  return `${phase.ms} ms; HTTP calls: ${calls}; ${counted}: ${phase.dataRequests}${unconfirmed}${timedOut}`;
}

function describeOutput(output: CellOutput): string[] {
  if ("error" in output) return [`${output.error.type} ${output.error.message}`];
  // Dates as YYYY-MM-DD, as Excel shows them.
  return formatValue(output.iso ?? output.value);
}

function formatValue(value: OutputValue): string[] {
  if (!Array.isArray(value)) return [String(value)];
  // Escaped before the widths are measured, so a table with control characters stays aligned.
  const text = (cell: OutputScalar): string => escapeControls(String(cell));
  // A series identifier line (one text, the rest empty) spans the table: it sets no width.
  const spanning = (row: OutputScalar[]): boolean =>
    row.length > 1 && row.slice(1).every((cell) => cell === "");
  const widths: number[] = [];
  for (const row of value.filter((candidate) => !spanning(candidate))) {
    row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, text(cell).length)));
  }
  return value.map((row) =>
    row
      .map((cell, column) => text(cell).padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

function indent(lines: string[]): string[] {
  return lines.map((line) => `    ${line}`);
}
