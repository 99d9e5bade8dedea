// The runner's outputs: the JSON document of --json (one document, exactly the documented
// shape) and a readable text table otherwise.
import type { RefreshSummary } from "../core/engine-api";
import type { CellOutput, OutputScalar, OutputValue } from "./cell-output";
import type { PassReport } from "./run-pass";
import type { RunReport } from "./run-workbook";

export function reportJson(report: RunReport): string {
  const document: Record<string, unknown> = {
    passes: report.passes.map((pass) => ({
      results: pass.results,
      http: pass.http,
      dataRequests: pass.dataRequests,
      ms: pass.ms,
      ...(pass.stuck ? { stuck: pass.stuck } : {}),
    })),
  };
  if (report.refresh) document.refresh = report.refresh;
  return JSON.stringify(document);
}

/** A pass's fields after its results, as JSON members (for report-writer.ts). */
export function jsonPassFields(pass: PassReport): string {
  const fields = JSON.stringify({
    http: pass.http,
    dataRequests: pass.dataRequests,
    ms: pass.ms,
    ...(pass.stuck ? { stuck: pass.stuck } : {}),
  });
  return fields.slice(1, -1);
}

export function reportText(report: RunReport): string {
  const lines = [...textOfRefresh(report.refresh), ...report.passes.flatMap(textOfPass)];
  return `${lines.join("\n")}\n`;
}

export function textOfRefresh(refresh: RefreshSummary | undefined): string[] {
  if (!refresh) return [];
  const r = refresh;
  return [
    `Refresh: ${r.updated} updated, ${r.revised} revised, ${r.unchanged} unchanged, ${r.failed} failed, ${r.requestsUsed} data requests.`,
    ...r.failures.map((failure) => `  failed ${failure.code}: ${failure.message}`),
  ];
}

export function textOfPass(pass: PassReport, index: number): string[] {
  const lines: string[] = [];
  const calls = Object.entries(pass.http)
    .map(([operation, count]) => `${operation} ${count}`)
    .join(", ");
  lines.push(`Pass ${index + 1}: ${pass.ms} ms; HTTP calls: ${calls}; data requests: ${pass.dataRequests}`);
  for (const result of pass.results) {
    lines.push(`${result.formula}`);
    lines.push(...indent(describeOutput(result)));
  }
  if (pass.stuck) lines.push(`Did not settle: ${pass.stuck.join("  ")}`);
  return lines;
}

function describeOutput(output: CellOutput): string[] {
  if ("error" in output) return [`${output.error.type} ${output.error.message}`];
  return formatValue(output.value);
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
