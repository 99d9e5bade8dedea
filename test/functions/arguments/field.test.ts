import { SPEC_INFO_FIELDS } from "../../../src/core/info-fields";
import { findField, parseFieldName } from "../../../src/functions/arguments/field";
import { MAX_ERROR_MESSAGE_LENGTH } from "../../../src/functions/cell-errors";

test.each([
  [null, null],
  ["", null],
  ["assessment", "assessment"],
  ["Default Currency", "default_currency"],
  ["LAST-AVAILABLE-FINAL", "last_available_final"],
  ["remark 1", "remark_1"],
  ["remark1", "remark_1"],
  [" updated_at ", "updated_at"],
])("field %j is %j", (input, name) => {
  expect(parseFieldName(input)).toBe(name);
});

test("a numeric field is rejected", () => {
  expect(() => parseFieldName(3)).toThrow(
    expect.objectContaining({ kind: "input", message: expect.stringMatching(/^The field arrived as 3/) }),
  );
});

test("findField returns the field as the record names it, including extra fields", () => {
  expect(findField("incoterm", [...SPEC_INFO_FIELDS, "Incoterm"])).toBe("Incoterm");
  expect(findField("updated_at", SPEC_INFO_FIELDS)).toBe("updated_at");
});

test("an unknown field lists the fields within Excel's message limit", () => {
  let message = "";
  try {
    findField("price", [...SPEC_INFO_FIELDS, "incoterm", "market_type"]);
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toMatch(
    /^The field "price" is not a Series Info field; fields: area, assessment, available_currencies, /,
  );
  expect(message).toMatch(/, and \d+ more\.$/);
  expect(message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH);
});

test("names are normalised the same way after many distinct names (the remembered names are bounded)", () => {
  for (let index = 0; index < 2500; index += 1)
    expect(parseFieldName(`Remark ${index}`)).toBe(`remark_${index}`);
  expect(parseFieldName("Default Currency")).toBe("default_currency");
  expect(parseFieldName("remark2")).toBe("remark_2");
});
