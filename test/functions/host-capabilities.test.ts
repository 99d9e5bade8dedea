import {
  DATE_NUMBER_FORMAT,
  detectHostCapabilities,
  hostCapabilitiesFor,
  type RequirementSets,
} from "../../src/functions/host-capabilities";
import { RUNNER_REQUIREMENTS } from "../../src/headless/host-requirements-shim";

function requirements(supported: string[]): RequirementSets {
  return { isSetSupported: (name, version) => supported.includes(`${name} ${version}`) };
}

test.each([
  ["no requirement sets (outside Office)", undefined, 39083],
  ["CustomFunctionsRuntime 1.3 only", requirements(["CustomFunctionsRuntime 1.3"]), 39083],
  [
    "CustomFunctionsRuntime 1.4",
    requirements(["CustomFunctionsRuntime 1.4"]),
    { type: "FormattedNumber", basicValue: 39083, numberFormat: DATE_NUMBER_FORMAT },
  ],
  [
    "CustomFunctionsRuntime 1.4 and ExcelApi 1.19",
    requirements(["CustomFunctionsRuntime 1.4", "ExcelApi 1.19"]),
    { type: "Double", basicValue: 39083, numberFormat: DATE_NUMBER_FORMAT },
  ],
])("%s", (_label, sets, expected) => {
  expect(hostCapabilitiesFor(sets).dateCell(39083)).toEqual(expected);
});

test("a host whose isSetSupported throws gets plain serials", () => {
  const throwing: RequirementSets = {
    isSetSupported: () => {
      throw new Error("not loaded");
    },
  };
  expect(hostCapabilitiesFor(throwing).dateCell(45000)).toBe(45000);
});

test("detection reads Office.context.requirements when Office exists", () => {
  const scope = globalThis as { Office?: unknown };
  expect(detectHostCapabilities().dateCell(1)).toBe(1);
  scope.Office = { context: { requirements: requirements(["CustomFunctionsRuntime 1.4"]) } };
  try {
    expect(detectHostCapabilities().dateCell(1)).toEqual({
      type: "FormattedNumber",
      basicValue: 1,
      numberFormat: DATE_NUMBER_FORMAT,
    });
  } finally {
    delete scope.Office;
  }
});

test.each<[string, RequirementSets | undefined, boolean, "Double" | "FormattedNumber" | null]>([
  ["outside Office", undefined, false, null],
  [
    "CustomFunctionsRuntime 1.3 and ExcelApi 1.16",
    requirements(["CustomFunctionsRuntime 1.3", "ExcelApi 1.16"]),
    false,
    null,
  ],
  [
    "CustomFunctionsRuntime 1.4, ExcelApi 1.15",
    requirements(["CustomFunctionsRuntime 1.4", "ExcelApi 1.15"]),
    false,
    "FormattedNumber",
  ],
  [
    "CustomFunctionsRuntime 1.4, ExcelApi 1.16",
    requirements(["CustomFunctionsRuntime 1.4", "ExcelApi 1.16"]),
    true,
    "FormattedNumber",
  ],
  [
    "CustomFunctionsRuntime 1.4, ExcelApi 1.19",
    requirements(["CustomFunctionsRuntime 1.4", "ExcelApi 1.19"]),
    true,
    "Double",
  ],
])("entity cards: %s", (_label, sets, entities, numberType) => {
  const host = hostCapabilitiesFor(sets);
  expect(host.entities).toBe(entities);
  expect(host.formattedNumberType).toBe(numberType);
});

test("the runner's requirement sets give PCD.INFO's table, not a card", () => {
  expect(hostCapabilitiesFor(RUNNER_REQUIREMENTS).entities).toBe(false);
});
