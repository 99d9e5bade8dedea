// axe-core (the accessibility engine behind most checkers) injected into the page by
// playwright: returns the serious and critical violations, each as "rule: targets".
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

export async function seriousViolations(page: Page, selector = "#root"): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's content security policy (no
  // inline script, no eval) does not govern: the page itself stays as strict as shipped.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (context) => {
    const axe = (
      window as unknown as { axe: { run(context: string): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(context);
    return result.violations;
  }, selector);
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.help}): ${violation.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
}
