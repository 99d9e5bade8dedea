import { FormulaSyntaxError, parseFormula } from "../../src/headless/formula";

test.each([
  ['=PCD.VALUES("68520-8-1")', { name: "VALUES", args: ["68520-8-1"] }],
  ['=pcd.value("68520-8-1", DATE(2024,1,31))', { name: "VALUE", args: ["68520-8-1", 45322] }],
  [
    '  =PCD.Values( "68520-8-1" , "EUR",, 39083 , "2024-06", 2, 0, 1 ) ',
    { name: "VALUES", args: ["68520-8-1", "EUR", null, 39083, "2024-06", 2, 0, 1] },
  ],
  ["=PCD.LIMITS()", { name: "LIMITS", args: [] }],
  ['=PCD.LIMITS(,"energy")', { name: "LIMITS", args: [null, "energy"] }],
  ['=PCD.SEARCH("say ""gas""", , 5)', { name: "SEARCH", args: ['say "gas"', null, 5] }],
  ['=PCD.INFO("1-2-3",)', { name: "INFO", args: ["1-2-3", null] }],
  ["=PCD.VALUE(-1.5e2, TRUE, false)", { name: "VALUE", args: [-150, true, false] }],
  ['=PCD.VALUE("")', { name: "VALUE", args: [""] }],
])("%s parses", (text, expected) => {
  expect(parseFormula(text)).toEqual(expected);
});

test.each([
  ['PCD.VALUE("1-2-3")', /column 1: expected "="/],
  [
    '=PCD.PRICE("1-2-3")',
    /unknown function PCD.PRICE; expected PCD.VALUES, PCD.VALUE, PCD.INFO, PCD.LIMITS, PCD.SEARCH/,
  ],
  ['=SUM("1-2-3")', /unknown function SUM/],
  ['=PCD.VALUE("1-2-3"', /column 19: expected "," or "\)"/],
  ['=PCD.VALUE("1-2-3)', /column 12: unterminated text literal/],
  ["=PCD.VALUE(68520-8-1)", /column 17: expected "," or "\)"/],
  ["=PCD.VALUE(A1)", /unsupported argument A1/],
  ["=PCD.VALUE(DATE(2024,2,30))", /DATE needs a valid year, month and day/],
  ["=PCD.VALUE(DATE(2024,2))", /DATE needs a valid year, month and day/],
  ['=PCD.VALUE("1-2-3") x', /unexpected text after the closing parenthesis/],
  ["", /column 1: expected "="/],
  [
    `=PCD.VALUE(${"DATE(".repeat(64)}`,
    /column 331: functions nested deeper than 64 levels \(Excel's limit\)/,
  ],
  [`=PCD.VALUE(${"DATE(".repeat(3000)}2024,1,1${")".repeat(3001)}`, /nested deeper than 64 levels/],
])("%j is a syntax error for that line, not a crash", (text, message) => {
  const result = parseFormula(text);
  expect(result).toBeInstanceOf(FormulaSyntaxError);
  expect((result as FormulaSyntaxError).message).toMatch(message);
});
