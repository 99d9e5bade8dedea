import type { ForecastOption, HeadersOption } from "../../src/contracts/formula-options";
import { PointColumns } from "../../src/core/point-columns";
import { valuesTableSize } from "../../src/taskpane/values-table-size";

const months = (first: string, count: number) =>
  Array.from({ length: count }, (_month, index) => {
    const [year, month] = first.split("-").map(Number) as [number, number];
    const total = year * 12 + month - 1 + index;
    return { month: `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`, value: index };
  });

// Finals 2024-01 to 2025-12 (24 months); forecasts 2025-11 to 2026-06 (8, two overlapping finals).
const data = {
  finals: PointColumns.fromPoints(months("2024-01", 24)),
  forecasts: PointColumns.fromPoints(months("2025-11", 8)),
};

test.each<[string, string, string, HeadersOption, ForecastOption, { rows: number; columns: number }]>([
  ["every month, headers, finals and forecasts", "", "", 1, 1, { rows: 1 + 24 + 6, columns: 3 }],
  ["finals only, no headers", "", "", 0, 0, { rows: 24, columns: 2 }],
  [
    "forecasts only (those past the finals), series line and headers",
    "",
    "",
    2,
    2,
    { rows: 2 + 6, columns: 3 },
  ],
  ["a span inside the finals", "2025-01", "2025-06", 1, 1, { rows: 1 + 6, columns: 3 }],
  ["a span from the last finals into the forecasts", "2025-12", "2026-02", 0, 1, { rows: 3, columns: 3 }],
  ["a span with no months: one cell for its message", "2030-01", "", 0, 0, { rows: 1, columns: 2 }],
])("%s", (_name, startMonth, endMonth, headers, forecast, size) => {
  expect(valuesTableSize(data, { startMonth, endMonth, headers, forecast })).toEqual(size);
});
