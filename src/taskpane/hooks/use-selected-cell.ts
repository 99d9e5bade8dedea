import { useEffect, useState } from "react";
import type { SelectedCell } from "../excel-bridge";
import { usePaneServices } from "../pane-services";

export interface SelectionState {
  /** The selection's top-left cell and its formula; null outside Excel or while it is busy. */
  cell: SelectedCell | null;
  /** Counts the selection's moves: what the pane showed for an earlier selection is stale. */
  moves: number;
}

/**
 * The workbook's selection, re-read on every move. One subscription for the Series tab: the
 * edit form shows the selected cell's formula and the insert footer drops what it said about
 * an earlier selection.
 */
export function useSelectedCell(): SelectionState {
  const { workbook } = usePaneServices();
  const [state, setState] = useState<SelectionState>({ cell: null, moves: 0 });

  useEffect(() => {
    let live = true;
    let stop: (() => Promise<void>) | null = null;
    let latest = 0;
    const refresh = (): void => {
      // Reads can answer out of order: only the last move's answer is shown.
      const read = ++latest;
      const show = (cell: SelectedCell | null): void => {
        if (live && read === latest) setState((previous) => ({ cell, moves: previous.moves + 1 }));
      };
      // Outside Excel (or while Excel is busy) there is simply no cell.
      workbook.selectedCell().then(show, () => show(null));
    };
    refresh();
    workbook.onSelectionChanged(refresh).then(
      (remove) => {
        if (live) stop = remove;
        else void remove();
      },
      () => undefined,
    );
    return () => {
      live = false;
      void stop?.().catch(() => undefined);
    };
  }, [workbook]);

  return state;
}
