// What a render shows of a load: never the outcome of other dependencies as the current one.
import { currentLoad, type LoadState } from "../../../src/taskpane/hooks/use-load";

const emptySearch: LoadState<string[] | null> = {
  deps: ["engine", ""],
  loaded: { status: "ready", value: null },
};
const gasSearch: LoadState<string[] | null> = {
  deps: ["engine", "gas"],
  loaded: { status: "ready", value: ["68520-8-1"] },
};
const failedGas: LoadState<string[] | null> = {
  deps: ["engine", "gas"],
  loaded: { status: "failed", value: null, message: "no answer" },
};
const never: LoadState<string[] | null> = { deps: null, loaded: { status: "loading", value: undefined } };

test.each([
  ["the outcome for the current dependencies", gasSearch, ["engine", "gas"], gasSearch.loaded],
  ["a failure for the current dependencies", failedGas, ["engine", "gas"], failedGas.loaded],
  [
    "new dependencies before their load started: loading, with the last value",
    emptySearch,
    ["engine", "gas"],
    { status: "loading", value: null },
  ],
  [
    "another dependency of the same count changed",
    gasSearch,
    ["other engine", "gas"],
    { status: "loading", value: ["68520-8-1"] },
  ],
  ["nothing loaded yet", never, ["engine", ""], { status: "loading", value: undefined }],
] as const)("%s", (_case, state, deps, shown) => {
  expect(currentLoad(state, deps)).toEqual(shown);
});
