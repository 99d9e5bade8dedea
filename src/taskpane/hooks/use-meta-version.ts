import { useEffect, useState } from "react";
import { usePaneServices } from "../pane-services";

/**
 * A number that grows whenever the engine reports a catalog or limits change; used as
 * an effect dependency so views reload what they show (usage bars after data calls).
 */
export function useMetaVersion(): number {
  const { engine } = usePaneServices();
  const [version, setVersion] = useState(0);
  useEffect(() => engine.onMetaChange(() => setVersion((value) => value + 1)), [engine]);
  return version;
}
