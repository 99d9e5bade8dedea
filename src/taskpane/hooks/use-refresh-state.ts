import { useEffect, useState } from "react";
import type { RefreshState } from "../../host/refresh-runner";
import { usePaneServices } from "../pane-services";

/** The runtime's refresh-all state, whether the pane or the ribbon started it. */
export function useRefreshState(): RefreshState {
  const { refresh } = usePaneServices();
  const [state, setState] = useState<RefreshState>(() => refresh.current());
  useEffect(() => {
    setState(refresh.current());
    return refresh.subscribe(setState);
  }, [refresh]);
  return state;
}
