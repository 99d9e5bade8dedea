// What the pane's components talk to: the engine (its public API only), the runtime's
// one refresh runner (shared with the ribbon button) and the workbook. Passed through a
// context so component tests and the preview can supply their own.
import { createContext, useContext, type ReactNode } from "react";
import type { Engine } from "../core/engine-api";
import type { RefreshState } from "../host/refresh-runner";
import type { RefreshSummary } from "../core/engine-api";
import type { FormulaTarget } from "./excel-bridge";

/** The part of RefreshRunner the pane uses. */
export interface RefreshControl {
  current(): RefreshState;
  subscribe(listener: (state: RefreshState) => void): () => void;
  run(): Promise<RefreshSummary | null>;
}

export interface PaneServices {
  engine: Engine;
  refresh: RefreshControl;
  workbook: FormulaTarget;
}

const PaneServicesContext = createContext<PaneServices | null>(null);

export function PaneServicesProvider(props: {
  services: PaneServices;
  children: ReactNode;
}): React.JSX.Element {
  return <PaneServicesContext.Provider value={props.services}>{props.children}</PaneServicesContext.Provider>;
}

export function usePaneServices(): PaneServices {
  const services = useContext(PaneServicesContext);
  if (!services) throw new Error("PaneServicesProvider is missing above this component.");
  return services;
}
