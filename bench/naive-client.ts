// The baseline: what a straightforward client does. One call per cell, in the order
// Excel invokes them: a one-code Series Values History call per PCD.VALUES / PCD.VALUE
// cell and a Series Info call per PCD.INFO cell; no cache, no coalescing, no batching.
// It keeps to the 10 requests/second per operation (otherwise it only collects 429s)
// and retries a 429/503 after Retry-After, as any client must.
import Bottleneck from "bottleneck";
import { CALLS_PER_SECOND, zeroCalls, type CallCounts, type Operation } from "./bounds";
import { CURRENCIES, UNITS, findByName } from "./reference";
import { accessToken, type ServiceAddress } from "./service";
import type { BenchFormula } from "./workloads";

export interface NaiveRunOptions {
  callsPerSecond?: number;
  /** Attempts per cell when the service answers 429 or 503. */
  maxAttempts?: number;
}

export interface NaiveRunResult {
  cells: number;
  calls: CallCounts;
  /** Codes answered by Series Values History calls (one per data cell). */
  dataRequests: number;
  /** Cells that ended without data (after retries). */
  failedCells: number;
  ms: number;
}

/** The `<codes>` segment for one cell: the code with whatever options the formula wrote. */
export function naiveCodesSegment(formula: BenchFormula): string {
  const parts = [formula.code];
  if (formula.currency !== null) {
    const currency = findByName(CURRENCIES, formula.currency);
    if (currency !== undefined) parts.push(`c=${currency.id}`);
  }
  if (formula.unit !== null) {
    const unit = findByName(UNITS, formula.unit);
    if (unit !== undefined) parts.push(`u=${unit.id}`);
  }
  return parts.join("&");
}

/** The call a naive client makes for one cell. */
export function naiveCall(
  formula: BenchFormula,
  baseUrl: string,
): { operation: Operation; url: string; codes: number } {
  if (formula.kind === "INFO") {
    return { operation: "series_info", url: `${baseUrl}/${formula.product}/v1/export/series`, codes: 0 };
  }
  return {
    operation: "series_hist",
    url: `${baseUrl}/${formula.product}/v1/export/series_hist/${naiveCodesSegment(formula)}`,
    codes: 1,
  };
}

function retryDelayMs(response: Response): number {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
}

export async function runNaiveClient(
  formulas: readonly BenchFormula[],
  service: ServiceAddress,
  options: NaiveRunOptions = {},
): Promise<NaiveRunResult> {
  const started = performance.now();
  const rate = options.callsPerSecond ?? CALLS_PER_SECOND;
  const maxAttempts = options.maxAttempts ?? 5;
  const calls = zeroCalls();
  // The server counts a sliding one-second window at arrival: keep a small margin.
  const limiters = new Map<Operation, Bottleneck>();
  const limiterOf = (operation: Operation): Bottleneck => {
    let limiter = limiters.get(operation);
    if (limiter === undefined) {
      limiter = new Bottleneck({ minTime: Math.ceil((1000 / rate) * 1.05) });
      limiters.set(operation, limiter);
    }
    return limiter;
  };

  calls.access_token += 1;
  const token = await accessToken(service);
  let dataRequests = 0;
  let failedCells = 0;

  const runCell = async (formula: BenchFormula): Promise<void> => {
    const call = naiveCall(formula, service.baseUrl);
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const response = await limiterOf(call.operation).schedule(() => {
        calls[call.operation] += 1;
        return fetch(call.url, { headers: { Authorization: `Bearer ${token}` } });
      });
      // The whole body is read: a real client parses it.
      await response.text();
      if (response.ok) {
        dataRequests += call.codes;
        return;
      }
      if (response.status !== 429 && response.status !== 503) break;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(response)));
    }
    failedCells += 1;
  };

  await Promise.all(formulas.map(runCell));
  return { cells: formulas.length, calls, dataRequests, failedCells, ms: performance.now() - started };
}
