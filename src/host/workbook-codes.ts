// The series codes a workbook's cells name, read from the workbook itself: the text literals
// of its PCD formulas, and cells holding a code as text (a formula may read its code from a
// cell: =PCD.VALUE(A1)). Refresh-all plans a saved key only when a cell held it this session
// or its code is named here (EngineEnvironment.workbookCodes): the saved key list travels in
// the file, and a shared workbook's list may name anything. ExcelApi 1.4
// (getUsedRangeOrNullObject); a host without it, or a failed read, rejects, and refresh-all
// then covers the keys its cells held this session.

import { isPcdFormula } from "../workbook/pcd-formula";

/** A series code: three groups of digits (docs/service.md). */
const CODE = /^\d+-\d+-\d+$/;
/** Text literals of a formula ("" is a quote inside). */
const TEXT_LITERAL = /"((?:[^"]|"")*)"/g;

/** The codes one cell names: its PCD formula's literals, or itself when it holds a code. */
export function codesOfCell(content: unknown, found: Set<string>): void {
  if (typeof content !== "string") return;
  const text = content.trim();
  if (!text.startsWith("=")) {
    if (CODE.test(text)) found.add(text);
    return;
  }
  if (!isPcdFormula(text)) return;
  for (const match of text.matchAll(TEXT_LITERAL)) {
    const literal = (match[1] ?? "").replaceAll('""', '"').trim();
    if (CODE.test(literal)) found.add(literal);
  }
}

/** Every code the workbook's sheets name (formulas and typed codes of their used ranges). */
export async function readWorkbookCodes(): Promise<ReadonlySet<string>> {
  if (typeof Excel === "undefined" || typeof Excel.run !== "function")
    throw new Error("this host has no Excel workbook to read");
  return Excel.run(async (context) => {
    const sheets = context.workbook.worksheets;
    sheets.load("items/name");
    await context.sync();
    const used = sheets.items.map((sheet) => sheet.getUsedRangeOrNullObject());
    for (const range of used) range.load("formulas,isNullObject");
    await context.sync();
    const found = new Set<string>();
    for (const range of used) {
      if (range.isNullObject) continue;
      for (const row of range.formulas) for (const content of row) codesOfCell(content, found);
    }
    return found;
  });
}

/**
 * The read, reused for `maxAgeMs`: the cost preview is worked out again on every change
 * event, and each read loads every sheet's used range. A code typed since is not missed:
 * the cell that shows it holds its key, and held keys are always planned.
 */
export function reusedFor(
  read: () => Promise<ReadonlySet<string>>,
  maxAgeMs: number,
  now: () => number = () => Date.now(),
): () => Promise<ReadonlySet<string>> {
  let last: { at: number; codes: Promise<ReadonlySet<string>> } | undefined;
  return () => {
    const at = now();
    if (last === undefined || at - last.at >= maxAgeMs) {
      const codes = read();
      last = { at, codes };
      // A failed read is not kept: the next plan reads again.
      codes.catch(() => {
        if (last?.codes === codes) last = undefined;
      });
    }
    return last.codes;
  };
}
