// axe-core (the accessibility engine behind most checkers) injected into the page by
// playwright: returns the serious and critical violations, each as "rule: targets".
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; html: string }>;
}

/**
 * Fluent's focus manager (tabster) puts zero-size <i data-tabster-dummy> sentinels around
 * lists and tab lists that pass the focus on the moment they get it; they are not content
 * a person meets, so the scan leaves them out.
 */
const EXCLUDED = /^<i [^>]*data-tabster-dummy=/;

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
    .map((violation) => ({
      ...violation,
      nodes: violation.nodes.filter((node) => !EXCLUDED.test(node.html)),
    }))
    .filter((violation) => violation.nodes.length > 0)
    .map(
      (violation) =>
        `${violation.id} (${violation.help}): ${violation.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
}
