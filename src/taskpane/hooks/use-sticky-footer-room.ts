import { useEffect, useState } from "react";
import { makeStaticStyles } from "@fluentui/react-components";

/** The sticky footer's height, on the document's root element (the preview's pane reads it too). */
export const STICKY_FOOTER_HEIGHT = "--pcd-sticky-footer-height";

/**
 * Focus (Tab) and scrollIntoView bring a control to the nearest edge of the scrolled area:
 * at the bottom, that is under a sticky footer. Scroll padding as tall as the footer keeps
 * such a control just above it.
 */
const useScrollPadding = makeStaticStyles({
  html: { scrollPaddingBottom: `var(${STICKY_FOOTER_HEIGHT}, 0px)` },
});

/**
 * Keeps the page's bottom scroll padding equal to a sticky footer's height while it is shown
 * (zero while hidden). Returns the ref callback to put on the footer.
 */
export function useStickyFooterRoom(): (element: HTMLElement | null) => void {
  useScrollPadding();
  const [footer, setFooter] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (footer === null || typeof ResizeObserver === "undefined") return;
    const root = document.documentElement;
    const measure = (): void => root.style.setProperty(STICKY_FOOTER_HEIGHT, `${footer.offsetHeight}px`);
    const observer = new ResizeObserver(measure);
    observer.observe(footer);
    measure();
    return () => {
      observer.disconnect();
      root.style.removeProperty(STICKY_FOOTER_HEIGHT);
    };
  }, [footer]);
  return setFooter;
}
