// The cell watchdog covers the real worst case of one cell: a catalog call, a history call
// and a values call, each retried as slowly as the service can make it, and one token
// renewal on the way. Measured with the real service client on a fake clock.
import { DEFAULT_SETTINGS } from "../../src/core/settings";
import { defaultWatchdogMs } from "../../src/functions/streaming-cell";
import {
  SLOW_SCRIPTS,
  SLOW_SCRIPTS_WITH_RENEWAL,
  timeSlowCall,
  type CallName,
} from "../support/slow-service";
import { realEngine } from "./support/real-engine";

async function slowest(call: CallName, scripts: typeof SLOW_SCRIPTS): Promise<number> {
  let worst = 0;
  for (const script of Object.values(scripts)) {
    worst = Math.max(worst, (await timeSlowCall(call, script)).elapsedMs);
  }
  return worst;
}

test("the default watchdog outlasts the slowest catalog, history and values calls with a renewal", async () => {
  const calls: CallName[] = ["seriesInfo", "seriesHistory", "seriesValues"];
  const plain = await Promise.all(calls.map((call) => slowest(call, SLOW_SCRIPTS)));
  const renewed = await Promise.all(calls.map((call) => slowest(call, SLOW_SCRIPTS_WITH_RENEWAL)));
  const renewalCost = Math.max(...renewed.map((ms, i) => ms - (plain[i] ?? 0)));
  const worstCell = plain.reduce((sum, ms) => sum + ms, 0) + renewalCost;

  // The real engine with the shipped timeouts (130 s calls, 300 s history).
  const h = realEngine([]);
  h.settings.value = { ...DEFAULT_SETTINGS };
  const { engine } = h;
  expect(defaultWatchdogMs(engine)).toBeGreaterThanOrEqual(worstCell);
  // The bound is the worst case, not a blanket: within a minute of it.
  expect(defaultWatchdogMs(engine) - worstCell).toBeLessThan(60_000);
});
