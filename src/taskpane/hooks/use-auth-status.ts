import { useEffect, useState } from "react";
import type { AuthStatus } from "../../core/engine-api";
import { usePaneServices } from "../pane-services";

/** The engine's sign-in state, updated on every auth change (sign-in, renewal, sign-out). */
export function useAuthStatus(): AuthStatus {
  const { engine } = usePaneServices();
  const [status, setStatus] = useState<AuthStatus>(() => engine.authStatus());
  useEffect(() => {
    setStatus(engine.authStatus());
    return engine.onAuthChange(setStatus);
  }, [engine]);
  return status;
}
