import { useEffect, useState } from "react";
import { describeError } from "../messages";

export type Loaded<T> =
  | { status: "loading"; value: T | undefined }
  | { status: "ready"; value: T }
  | { status: "failed"; value: T | undefined; message: string };

/**
 * Runs an async load whenever its dependencies change and keeps the last value while a
 * new one loads (no flicker); an answer that arrives after a newer load started is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ status: "loading", value: undefined });
  useEffect(() => {
    let current = true;
    setState((previous) => ({ status: "loading", value: previous.value }));
    load().then(
      (value) => {
        if (current) setState({ status: "ready", value });
      },
      (error: unknown) => {
        if (current)
          setState((previous) => ({
            status: "failed",
            value: previous.value,
            message: describeError(error),
          }));
      },
    );
    return () => {
      current = false;
    };
    // The caller's deps decide when to reload; `load` is a fresh closure every render.
  }, deps);
  return state;
}
