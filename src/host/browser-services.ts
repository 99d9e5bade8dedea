// Runtime-wide services of the add-in that are not the engine itself.
import { RefreshRunner } from "./refresh-runner";
import { getEngine } from "./shared-engine";

let refreshRunner: RefreshRunner | undefined;

export function getRefreshRunner(): RefreshRunner {
  refreshRunner ??= new RefreshRunner(getEngine);
  return refreshRunner;
}
