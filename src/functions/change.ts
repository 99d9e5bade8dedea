// PCD.CHANGE: the relative change of a series between two months, V(to) / V(from) − 1.
import type { Engine } from "../core/engine-api";
import { parseRatioArguments, ratioJob, type RatioArguments } from "./series-ratio";
import type { CellJob } from "./streaming-cell";

export function changeJob(engine: Engine, args: RatioArguments): CellJob<number> {
  return ratioJob(
    engine,
    () => parseRatioArguments(args),
    (ratio) => ratio - 1,
  );
}
