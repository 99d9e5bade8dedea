import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { RefreshPlan } from "../../../src/core/engine-api";
import { RefreshCost } from "../../../src/taskpane/components/RefreshCost";

const UNTIL = Date.parse("2026-12-04T04:00:00Z");

/** A plan whose cached catalog says one request is owed (a cell with no cached data yet). */
const owing = (closed?: RefreshPlan["closed"]): RefreshPlan => ({
  items: [
    {
      key: "k",
      code: "57476-2-2",
      product: "energy_price",
      dataset: "Australia",
      action: "values",
      reason: "",
    },
  ],
  cost: [{ product: "energy_price", dataset: "Australia", requests: 1, remaining: 0 }],
  totalRequests: 1,
  overBudget: ["Australia"],
  catalogAsOf: UNTIL - 16 * 3_600_000,
  ...(closed === undefined ? {} : { closed }),
});

const shown = (plan: RefreshPlan): string => renderToStaticMarkup(createElement(RefreshCost, { plan }));

// In a downtime the pane says the cost is known once the service is back (docs/taskpane.md,
// the month's states: "instead of a cost"): a cost from the cached catalog beside that
// sentence contradicts it.
test.each<[string, RefreshPlan["closed"], boolean]>([
  ["release day: the closed sentence instead of a cost", { reason: "release", until: UNTIL }, false],
  ["maintenance: the closed sentence instead of a cost", { reason: "maintenance", until: UNTIL }, false],
  ["open: the cost per dataset", undefined, true],
])("%s", (_name, closed, costShown) => {
  const html = shown(owing(closed));
  expect(html.includes('data-testid="refresh-cost-row"')).toBe(costShown);
  expect(html.includes("Not enough allowance left")).toBe(costShown);
  expect(html.includes("its cost is known")).toBe(!costShown);
});
