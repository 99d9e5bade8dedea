// Which control started the running (or last) refresh-all, so its progress and summary
// show next to that control: the Usage tab's "Refresh all" shows them under itself, the
// banner shows those the ribbon (or the automatic refresh, or the banner's offer) started.
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { usePaneServices } from "./pane-services";

/** "usage": the Usage tab's button; "banner": the ribbon, the offer or the automatic refresh. */
export type RefreshOrigin = "usage" | "banner";

interface RefreshOriginValue {
  origin: RefreshOrigin;
  /** Runs a refresh-all on behalf of a control (joins a running one without taking it over). */
  run(origin: RefreshOrigin): void;
}

const RefreshOriginContext = createContext<RefreshOriginValue | null>(null);

export function RefreshOriginProvider(props: { children: ReactNode }): React.JSX.Element {
  const { refresh } = usePaneServices();
  const [origin, setOrigin] = useState<RefreshOrigin>("banner");
  const pending = useRef<RefreshOrigin | null>(null);

  // A refresh that starts without a click in the pane came from the ribbon.
  useEffect(
    () =>
      refresh.subscribe((state) => {
        if (state.status === "running" && state.progress === null) {
          setOrigin(pending.current ?? "banner");
          pending.current = null;
        }
      }),
    [refresh],
  );

  const value = useMemo<RefreshOriginValue>(
    () => ({
      origin,
      run: (by) => {
        if (refresh.current().status !== "running") pending.current = by;
        // Only the Usage tab's button shows what the refresh costs before it runs.
        void refresh.run({ unreviewed: by !== "usage" });
      },
    }),
    [origin, refresh],
  );
  return <RefreshOriginContext.Provider value={value}>{props.children}</RefreshOriginContext.Provider>;
}

export function useRefreshOrigin(): RefreshOriginValue {
  const value = useContext(RefreshOriginContext);
  if (!value) throw new Error("RefreshOriginProvider is missing above this component.");
  return value;
}
