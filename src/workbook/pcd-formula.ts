// Whether a formula calls a PCD function: what Freeze freezes and whose codes refresh-all
// plans. Excel shows a custom function's call as _xldudf_PCD.… in a workbook opened without
// the add-in; that spelling counts too. Text literals are left out, so a formula that only
// mentions "PCD.VALUE(" in a string does not.

/** A call of a PCD function (alone or inside a larger expression). */
const PCD_CALL = /(?:^|[^A-Za-z0-9_.])(?:_xldudf_)?PCD\.[A-Z][A-Z0-9_]*\s*\(/i;

export function isPcdFormula(formula: string): boolean {
  return formula.trimStart().startsWith("=") && PCD_CALL.test(formula.replace(/"(?:[^"]|"")*"/g, '""'));
}
