import { useEffect, useState } from "react";
import { describeError } from "../messages";

export type Loaded<T> =
  | { status: "loading"; value: T | undefined }
  | { status: "ready"; value: T }
  | { status: "failed"; value: T | undefined; message: string };

/** A load's outcome with the dependencies it was loaded for. */
export interface LoadState<T> {
  deps: readonly unknown[] | null;
  loaded: Loaded<T>;
}

function sameDeps(a: readonly unknown[] | null, b: readonly unknown[]): boolean {
  return a !== null && a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
}

/**
 * What a render shows: the outcome when it is for the current dependencies, else "loading"
 * with the last value. React renders once with new dependencies before the effect that
 * starts their load runs; without this, that render would show the old outcome as the new
 * one's (e.g. "0 series for "gas"" from the empty search, before the search for "gas" ran).
 */
export function currentLoad<T>(state: LoadState<T>, deps: readonly unknown[]): Loaded<T> {
  return sameDeps(state.deps, deps) ? state.loaded : { status: "loading", value: state.loaded.value };
}

/**
 * Runs an async load whenever its dependencies change and keeps the last value while a
 * new one loads (no flicker); an answer that arrives after a newer load started is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<LoadState<T>>({
    deps: null,
    loaded: { status: "loading", value: undefined },
  });
  useEffect(() => {
    let current = true;
    setState((previous) => ({ deps, loaded: { status: "loading", value: previous.loaded.value } }));
    load().then(
      (value) => {
        if (current) setState({ deps, loaded: { status: "ready", value } });
      },
      (error: unknown) => {
        if (current)
          setState((previous) => ({
            deps,
            loaded: { status: "failed", value: previous.loaded.value, message: describeError(error) },
          }));
      },
    );
    return () => {
      current = false;
    };
    // The caller's deps decide when to reload; `load` is a fresh closure every render.
  }, deps);
  return currentLoad(state, deps);
}
