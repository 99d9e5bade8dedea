// PCD.ESCALATE: an amount of one month carried to another with an index or price series,
// amount × V(to) / V(from).
import type { Engine } from "../core/engine-api";
import { parseAmount } from "./arguments/amount";
import { parseRatioArguments, ratioJob, type RatioArguments } from "./series-ratio";
import type { CellJob } from "./streaming-cell";

export interface EscalateArguments extends RatioArguments {
  amount: unknown;
}

export function escalateJob(engine: Engine, args: EscalateArguments): CellJob<number> {
  let amount = 0;
  return ratioJob(
    engine,
    () => {
      amount = parseAmount(args.amount);
      return parseRatioArguments(args);
    },
    (ratio) => amount * ratio,
  );
}
