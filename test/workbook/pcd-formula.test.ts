import { isPcdFormula } from "../../src/workbook/pcd-formula";

describe("isPcdFormula", () => {
  test.each<[string, boolean]>([
    ['=PCD.VALUE("1-1-1")', true],
    ['=pcd.values("1-1-1")*2', true],
    ['=ROUND(PCD.VALUE("1-1-1"),2)', true],
    ['=_xldudf_PCD.VALUE("1-1-1")', true],
    ["=SUM(A1:A3)", false],
    ['="PCD.VALUE(""x"")"', false],
    ["=XPCD.VALUE(1)", false],
    ["PCD.VALUE(1)", false],
  ])("%s → %s", (formula, expected) => {
    expect(isPcdFormula(formula)).toBe(expected);
  });
});
