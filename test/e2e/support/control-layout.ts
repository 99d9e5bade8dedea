// Whether a person can reach and read every control of a part of the pane: each visible
// button, input and select is scrolled into view the way focus scrolls it (nearest edge),
// then must lie inside the pane's viewport, be the element under its own centre (nothing
// such as a sticky footer covers it) and show its whole text (a button's or label's text
// fits its box; a select's chosen option fits beside its chevron). Returns one line per
// problem, naming the control.
import type { Page } from "playwright-core";

/** The scrolling element the pane lives in (the preview's aside; the document in Office). */
export const PANE_SCROLLER = ".pane";

export async function controlProblems(page: Page, rootSelectors: readonly string[]): Promise<string[]> {
  return page.evaluate(
    ({ roots, scrollerSelector }) => {
      const problems: string[] = [];
      const scroller = document.querySelector<HTMLElement>(scrollerSelector) ?? document.documentElement;
      const canvas = document.createElement("canvas").getContext("2d")!;
      const visible = (element: HTMLElement): boolean => {
        const style = getComputedStyle(element);
        return element.getClientRects().length > 0 && style.visibility !== "hidden";
      };
      const name = (element: HTMLElement): string => {
        const label =
          element.getAttribute("aria-label") ??
          (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null) ??
          element.getAttribute("name") ??
          element.textContent ??
          "";
        return `${element.tagName.toLowerCase()} "${label.trim().slice(0, 40)}"`;
      };
      const textWidth = (element: HTMLElement, text: string): number => {
        const style = getComputedStyle(element);
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        return canvas.measureText(text).width;
      };
      for (const selector of roots) {
        for (const root of document.querySelectorAll<HTMLElement>(selector)) {
          const controls = root.querySelectorAll<HTMLElement>(
            "button, input:not([type=hidden]), select, textarea, [role=combobox]",
          );
          for (const control of controls) {
            if (!visible(control)) continue;
            control.scrollIntoView({ block: "nearest", inline: "nearest" });
            const box = control.getBoundingClientRect();
            const pane = scroller.getBoundingClientRect();
            const bottom = Math.min(pane.top + scroller.clientHeight, window.innerHeight);
            const right = Math.min(pane.left + scroller.clientWidth, window.innerWidth);
            if (box.left < pane.left - 0.5 || box.right > right + 0.5 || box.top < pane.top - 0.5) {
              problems.push(`${name(control)} is outside the pane`);
              continue;
            }
            if (box.bottom > bottom + 0.5) {
              problems.push(`${name(control)} is below the pane's viewport`);
              continue;
            }
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            if (hit === null || !(hit === control || control.contains(hit))) {
              const by =
                hit instanceof HTMLElement
                  ? (hit.closest("[data-testid]")?.getAttribute("data-testid") ?? hit.tagName)
                  : "nothing";
              problems.push(`${name(control)} is covered by ${by}`);
            }
            if (control instanceof HTMLButtonElement && control.scrollWidth > control.clientWidth + 1) {
              problems.push(`${name(control)} is cut`);
            }
            if (control instanceof HTMLSelectElement) {
              const style = getComputedStyle(control);
              const label = control.selectedOptions[0]?.textContent ?? "";
              const room =
                control.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
              if (textWidth(control, label) > room) problems.push(`${name(control)} cuts "${label}"`);
            }
          }
          for (const label of root.querySelectorAll<HTMLElement>("label")) {
            if (visible(label) && label.scrollWidth > label.clientWidth + 1) {
              problems.push(`label "${label.textContent?.trim()}" is cut`);
            }
          }
        }
      }
      return problems;
    },
    { roots: [...rootSelectors], scrollerSelector: PANE_SCROLLER },
  );
}
