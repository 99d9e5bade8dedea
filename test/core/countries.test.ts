import { findCountry } from "../../src/core/countries";

test.each<[string, string | undefined]>([
  ["de", "Germany"],
  ["DEU", "Germany"],
  ["Deutschland", "Germany"],
  ["uk", "United Kingdom"],
  ["Great  Britain", "United Kingdom"],
  ["usa", "United States"],
  ["US", "United States"],
  ["u.s.", "United States"],
  ["holland", "Netherlands"],
  ["korea", "South Korea"],
  ["united states", "United States"],
  ["gas", undefined],
  ["", undefined],
])("%j is %s", (text, name) => {
  expect(findCountry(text)?.name).toBe(name);
});
