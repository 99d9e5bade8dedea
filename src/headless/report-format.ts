// The runner's outputs: the JSON document of --json (one document, exactly the documented
// shape: docs/formulas.md) and a readable text table otherwise.
import type { CellOutput, OutputScalar, OutputValue } from "./cell-output";
import type { RunReport } from "./run-workbook";
import type { Usage } from "./usage-meter";

export function reportJson(report: RunReport): string {
  const document: Record<string, unknown> = {
    signIn: report.signIn,
    ...(report.refresh ? { refresh: report.refresh } : {}),
    passes: report.passes.map((pass) => ({
      results: pass.results,
      http: pass.http,
      dataRequests: pass.dataRequests,
      dataRequestsUnconfirmed: pass.dataRequestsUnconfirmed,
      ms: pass.ms,
      ...(pass.stuck ? { stuck: pass.stuck } : {}),
    })),
    total: report.total,
    settled: report.settled,
  };
  return JSON.stringify(document);
}

export function reportText(report: RunReport): string {
  const lines: string[] = [];
  lines.push(`Sign-in: ${phaseLine(report.signIn)}`);
  if (report.signIn.error) lines.push(`  ${report.signIn.error}`);
  if (report.refresh) {
    const r = report.refresh;
    lines.push(`Refresh: ${phaseLine(r)}`);
    if (r.updated !== undefined) {
      lines.push(
        `  ${r.updated} updated, ${r.revised ?? 0} revised, ${r.unchanged ?? 0} unchanged, ${r.failed ?? 0} failed.`,
      );
    }
    if (r.error) lines.push(`  failed: ${r.error}`);
    for (const failure of r.failures ?? []) lines.push(`  failed ${failure.code}: ${failure.message}`);
  }
  report.passes.forEach((pass, index) => {
    lines.push(`Pass ${index + 1}: ${phaseLine({ ...pass, timedOut: pass.stuck ? true : undefined })}`);
    for (const result of pass.results) {
      lines.push(`${result.formula}`);
      lines.push(...indent(describeOutput(result)));
    }
    if (pass.stuck) lines.push(`Did not settle: ${pass.stuck.join("  ")}`);
  });
  lines.push(`Total: ${phaseLine(report.total)}`);
  return `${lines.join("\n")}\n`;
}

/** "167 ms; HTTP calls: access_token 0, ...; data requests: 1 (2 unconfirmed); timed out" */
function phaseLine(phase: Usage & { ms: number; timedOut?: true }): string {
  const calls = Object.entries(phase.http)
    .map(([operation, count]) => `${operation} ${count}`)
    .join(", ");
  const unconfirmed =
    phase.dataRequestsUnconfirmed > 0 ? ` (+${phase.dataRequestsUnconfirmed} sent without an answer)` : "";
  const timedOut = phase.timedOut ? "; timed out" : "";
  return `${phase.ms} ms; HTTP calls: ${calls}; data requests: ${phase.dataRequests}${unconfirmed}${timedOut}`;
}

function describeOutput(output: CellOutput): string[] {
  if ("error" in output) return [`${output.error.type} ${output.error.message}`];
  // Dates as YYYY-MM-DD, as Excel shows them.
  return formatValue(output.iso ?? output.value);
}

function formatValue(value: OutputValue): string[] {
  if (!Array.isArray(value)) return [String(value)];
  // A series identifier line (one text, the rest empty) spans the table: it sets no width.
  const spanning = (row: OutputScalar[]): boolean =>
    row.length > 1 && row.slice(1).every((cell) => cell === "");
  const widths: number[] = [];
  for (const row of value.filter((candidate) => !spanning(candidate))) {
    row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, String(cell).length)));
  }
  return value.map((row) =>
    row
      .map((cell, column) => String(cell).padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

function indent(lines: string[]): string[] {
  return lines.map((line) => `    ${line}`);
}
