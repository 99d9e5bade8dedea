import { useEffect, useState } from "react";
import { usePaneServices } from "../pane-services";

/**
 * A number that grows whenever the catalog, the environment or the session changes, but not
 * when only the allowances moved (every data call and Data Limits read moves them): views of
 * the catalog reload on it without going back to "Loading…" after each call.
 */
export function useCatalogVersion(): number {
  const { engine } = usePaneServices();
  const [version, setVersion] = useState(0);
  useEffect(() => engine.onCatalogChange(() => setVersion((value) => value + 1)), [engine]);
  return version;
}
