// Public in-process API of the emulator (docs/decisions.md D23).
export { startEmulator, type RunningEmulator } from "./server";
export type { EmulatorClocks } from "./emulator-state";
export { DEFAULT_OPTIONS, type ArrayOrder, type EmulatorOptions, type ErrorFormat } from "./options";
