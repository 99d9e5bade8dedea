import { locationFactorBase, sameBase } from "../../src/core/location-factor-base";

const info = (
  assessment: string,
  specification: string | null = null,
  location = "",
): { assessment: string; specification: string | null; location: string } => ({
  assessment,
  specification,
  location,
});

test.each<[string, ReturnType<typeof info>, { location: string; base: string } | null]>([
  [
    "the emulator's wording",
    info(
      "Location factor, Germany vs United States",
      "Plant construction cost in Germany relative to United States = 1.00",
      "Germany",
    ),
    { location: "Germany", base: "United States" },
  ],
  [
    "'relative to' alone",
    info("Belgium relative to Germany", null, "Belgium"),
    { location: "Belgium", base: "Germany" },
  ],
  [
    "no location field: the text's",
    info("Belgium relative to Germany"),
    { location: "Belgium", base: "Germany" },
  ],
  [
    "the specification only",
    info("Location Factor", "Plant construction cost in Belgium relative to Germany = 1.00"),
    { location: "Belgium", base: "Germany" },
  ],
  [
    "'versus', a full stop",
    info("Location factor: Japan versus the USA."),
    { location: "Japan", base: "United States" },
  ],
  ["'vs.' with an ISO code", info("Location factor, France vs. DE"), { location: "France", base: "Germany" }],
  [
    "'<base> = 1.00' alone",
    info("Location factor (US Gulf Coast = 1.00)", null, "Germany"),
    { location: "Germany", base: "US Gulf Coast" },
  ],
  [
    "'compared to'",
    info("Plant cost in Spain compared to Netherlands"),
    { location: "Spain", base: "Netherlands" },
  ],
  ["no base in any text", info("Location factor", "Plant construction cost index"), null],
  [
    "texts naming different bases",
    info("Location factor, Germany vs United States", "Germany relative to China = 1.00"),
    null,
  ],
  [
    "texts naming one base in two spellings",
    info("Location factor, Germany vs USA", "Germany relative to United States = 1.00"),
    { location: "Germany", base: "United States" },
  ],
])("the base of %s", (_case, series, expected) => {
  expect(locationFactorBase(series)).toEqual(expected);
});

test.each<[string, string, boolean]>([
  ["United States", "united  states", true],
  ["United States", "USA", true],
  ["US Gulf Coast", "us gulf coast", true],
  ["Germany", "United States", false],
  ["US Gulf Coast", "United States", false],
])("%s and %s are one base: %s", (a, b, same) => {
  expect(sameBase(a, b)).toBe(same);
});
