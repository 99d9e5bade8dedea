// The usage bars as the pane renders them: through a team gateway that gives the member a
// budget, the member's remaining budget is shown beside the team's bar, and both say whose.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { LimitsRow } from "../../../src/core/engine-api";
import { memberBudgetText, UsageBars } from "../../../src/taskpane/components/UsageBars";

/** The bars' markup and, after it, their text alone. */
const shownFor = (rows: LimitsRow[]): string => {
  const html = renderToStaticMarkup(createElement(UsageBars, { rows }));
  return `${html} ${html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ")}`;
};

// Used rows (remaining below total), so their product opens and its bars render.
test.each<[string, LimitsRow, string[], string[]]>([
  [
    "a member budget: the team's count and the member's",
    {
      product: "energy_price",
      dataset: "Germany",
      remaining: 480,
      total: 500,
      member: { budget: 100, remaining: 3 },
    },
    ["Team: 480 of 500 left", "Your budget: 3 of 100 left", 'data-member-remaining="3"'],
    [],
  ],
  [
    "no member budget: the allowance alone",
    { product: "energy_price", dataset: "Germany", remaining: 480, total: 500 },
    ["480 of 500 left"],
    ["Team:", "Your budget", "data-member-remaining"],
  ],
])("%s", (_name, row, shown, absent) => {
  const rendered = shownFor([row]);
  for (const part of shown) expect(rendered).toContain(part);
  for (const part of absent) expect(rendered).not.toContain(part);
});

test.each<[string, { budget: number; remaining: number }, string]>([
  ["some left", { budget: 100, remaining: 37 }, "Your budget: 37 of 100 left"],
  ["none left", { budget: 100, remaining: 0 }, "Your budget: 0 of 100 left"],
  [
    "more left than the budget (a lowered budget): no more than it",
    { budget: 10, remaining: 12 },
    "Your budget: 10 of 10 left",
  ],
])("memberBudgetText: %s", (_name, member, expected) => {
  expect(memberBudgetText(member)).toBe(expected);
});
