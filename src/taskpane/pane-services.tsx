// What the pane's components talk to: the engine (its public API only), the runtime's
// one refresh runner (shared with the ribbon button) and the workbook. Passed through a
// context so component tests and the preview can supply their own.
import { createContext, useContext, type ReactNode } from "react";
import type { Engine } from "../core/engine-api";
import type { RefreshRequest, RefreshState } from "../host/refresh-runner";
import type { RefreshSummary } from "../core/engine-api";
import type { FormulaTarget } from "./excel-bridge";
import type { SeriesReleaseChanges } from "../core/release-changes";
import type { ChangedBlock, UnconfirmedCell } from "../workbook/restore";
import type { ActionState, WorkbookAction } from "../workbook/workbook-actions";

/** The part of RefreshRunner the pane uses. */
export interface RefreshControl {
  current(): RefreshState;
  subscribe(listener: (state: RefreshState) => void): () => void;
  run(request?: RefreshRequest): Promise<RefreshSummary | null>;
}

/** The part of WorkbookActions the pane uses: Freeze, Restore, Write report. */
export interface WorkbookActionsControl {
  current(): ActionState;
  subscribe(listener: (state: ActionState) => void): () => void;
  run(action: WorkbookAction): Promise<void>;
  confirmAndRestore(cells: readonly UnconfirmedCell[]): Promise<void>;
  overwriteAndRestore(block: ChangedBlock): Promise<void>;
  writeReport(changes: readonly SeriesReleaseChanges[], finishedAt: number): Promise<string>;
}

export interface PaneServices {
  engine: Engine;
  refresh: RefreshControl;
  workbook: FormulaTarget;
  actions: WorkbookActionsControl;
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
