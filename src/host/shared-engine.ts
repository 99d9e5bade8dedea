// The one engine of the shared runtime. Custom functions, the task pane and the ribbon
// commands all reach it here, so they share one token, one cache and one batcher.
// Webpack's single runtime chunk makes this module a singleton across the page's
// bundles; the headless runner installs its own Node-backed engine with setEngine().
import type { Engine } from "../core/engine-api";

let engine: Engine | undefined;
let factory: (() => Engine) | undefined;

/** Registers how to create the engine on first use (the browser host does this at load). */
export function setEngineFactory(create: () => Engine): void {
  factory = create;
}

/** Installs a ready-made engine (headless runner, tests). */
export function setEngine(instance: Engine | undefined): void {
  engine = instance;
}

export function getEngine(): Engine {
  if (!engine) {
    if (!factory) throw new Error("PCD engine is not initialised: no engine factory was registered.");
    engine = factory();
  }
  return engine;
}
