// Keyboard-only driving: press Tab until the focused element is the one wanted, the way
// a keyboard user moves through the pane (no clicks, no direct focus()).
import type { Page } from "playwright-core";

export interface FocusTarget {
  /** CSS selector the focused element must match. */
  selector?: string;
  /** Exact trimmed text of the focused element (buttons, tabs). */
  text?: string;
}

export async function tabUntil(page: Page, target: FocusTarget, maxPresses = 60): Promise<void> {
  for (let press = 0; press < maxPresses; press += 1) {
    const found = await page.evaluate(({ selector, text }) => {
      const active = document.activeElement;
      if (!active || active === document.body) return false;
      if (selector !== undefined && !active.matches(selector)) return false;
      if (text !== undefined && active.textContent?.trim() !== text) return false;
      return true;
    }, target);
    if (found) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${JSON.stringify(target)} within ${maxPresses} presses.`);
}

/** Replaces a focused text field's content by typing. */
export async function typeInto(page: Page, text: string): Promise<void> {
  await page.keyboard.press("Control+A");
  await page.keyboard.type(text);
}
