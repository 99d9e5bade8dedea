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

// Through a team gateway the cost is what the refresh asks it for (kept series cost nothing):
// neither the caption nor the warning may say the refresh spends it all or stops at what is left.
test.each<[string, boolean, string, string]>([
  [
    "directly",
    false,
    "Refreshing this workbook uses 1 data request:",
    "The refresh spends what is left; the other series keep their cached data.",
  ],
  [
    "through a team gateway",
    true,
    "Refreshing this workbook asks your team&#x27;s gateway for 1 data request; it charges the team only for series it does not keep already:",
    "The gateway serves the series it keeps at no charge and buys others while the allowance lasts; the series beyond keep their cached data.",
  ],
])("%s: the cost and the shortfall say what the refresh spends", (_name, gateway, caption, shortfall) => {
  const html = shown({ ...owing(), ...(gateway ? { throughGateway: true as const } : {}) });
  expect(html).toContain(caption);
  expect(html).toContain(shortfall);
});
