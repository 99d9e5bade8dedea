import type { DataTypeHints } from "../../../src/core/http/data-type";
import { deriveDataType } from "../../../src/core/http/data-type";
import type { DataType, ProductId } from "../../../src/core/model";

describe("deriveDataType", () => {
  test.each<[ProductId, DataTypeHints, DataType]>([
    ["energy_price", { commodity: "Location factor" }, "energy"],
    ["commodity_price", { assessment: "Cost index" }, "commodity"],
    [
      "industry_economics",
      { commodity: "Location Factor", assessment: "Plant location factor US to Germany" },
      "location_factor",
    ],
    [
      "industry_economics",
      { assessment: "Germany location-factor relative to United States" },
      "location_factor",
    ],
    ["industry_economics", { productName: "Plant Location Factors" }, "location_factor"],
    [
      "industry_economics",
      { commodity: "Construction cost", assessment: "Plant construction cost index Germany" },
      "cost_index",
    ],
    ["industry_economics", { assessment: "Cost Index, chemical plant, Spain" }, "cost_index"],
    ["industry_economics", { commodity: "Index" }, "cost_index"],
    ["industry_economics", { productName: "Plant Construction Cost Indexes" }, "cost_index"],
    [
      "industry_economics",
      { commodity: "Electricity", assessment: "Electricity price, industrial, Germany" },
      "utilities",
    ],
    [
      "industry_economics",
      { commodity: "Natural gas", assessment: "Natural gas cost, Indexed contract" },
      "utilities",
    ],
    ["industry_economics", { commodity: "Cooling water" }, "utilities"],
    ["industry_economics", {}, "utilities"],
    // A location factor wording wins over construction-cost wording.
    ["industry_economics", { assessment: "Location factor for construction cost" }, "location_factor"],
  ])("%s %o -> %s", (product, hints, expected) => {
    expect(deriveDataType(product, hints)).toBe(expected);
  });
});
