// Rate control in front of every service call: at most N requests per second per
// operation (docs/service.md §8.1: 10 per second per operation) and a global cap on calls in
// flight. One spacing per operation starts its requests 1000/N ms apart (plus headroom), so
// no one-second window holds more than N starts of it.
import type { SendSlot } from "../service-client";
import type { ServiceOperation } from "./paths";
import { InFlightLimit } from "./in-flight-limit";
import { StartSpacing } from "./start-spacing";
import { StartWindow } from "./start-window";
import { ENGINE_DEFAULTS } from "../defaults";

export interface RequestGateOptions {
  requestsPerSecond: number;
  maxInFlight: number;
}

export const DEFAULT_REQUESTS_PER_SECOND = ENGINE_DEFAULTS.requestsPerSecond;
export const DEFAULT_MAX_IN_FLIGHT = ENGINE_DEFAULTS.maxInFlight;
const SPACING_HEADROOM = 1.05;

export interface RequestGate {
  /** Runs one HTTP attempt when both the operation's rate and the in-flight cap allow it. */
  run<T>(operation: ServiceOperation, attempt: () => Promise<T>): Promise<T>;
  /**
   * Resolves when an attempt of this operation may start: the caller decides then what to
   * send, and must run or release the slot (a forgotten slot blocks the gate).
   */
  reserve(operation: ServiceOperation): Promise<SendSlot>;
}

/** Waits until the operation's start window has room, then counts the start. */
async function startInWindow(window: StartWindow): Promise<void> {
  // Check and record run in one synchronous step, so two waiting slots cannot both pass.
  for (let delay = window.delayMs(); delay > 0; delay = window.delayMs()) {
    await new Promise((resume) => setTimeout(resume, delay));
  }
  window.record();
}

/** A granted slot: `free` ends the job that holds the in-flight place. */
function grantedSlot(free: () => void, window: StartWindow): SendSlot {
  let used = false;
  return {
    async run<T>(attempt: () => Promise<T>): Promise<T> {
      if (used) throw new Error("A send slot runs one request only.");
      used = true;
      try {
        await startInWindow(window);
        return await attempt();
      } finally {
        free();
      }
    },
    release(): void {
      if (used) return;
      used = true;
      free();
    },
  };
}

export function createRequestGate(options: RequestGateOptions): RequestGate {
  if (!(options.requestsPerSecond > 0)) {
    throw new RangeError(`requestsPerSecond must be positive, got ${options.requestsPerSecond}`);
  }
  if (!Number.isInteger(options.maxInFlight) || options.maxInFlight < 1) {
    throw new RangeError(`maxInFlight must be a positive integer, got ${options.maxInFlight}`);
  }
  const inFlight = new InFlightLimit(options.maxInFlight);
  // 5 % headroom: timers fire a millisecond early or late, and requests bunch up on the
  // way to the service; a window that sees 11 starts in 999 ms earns a 429.
  const minTime = Math.ceil((1000 / options.requestsPerSecond) * SPACING_HEADROOM);
  const perOperation = new Map<ServiceOperation, { limiter: StartSpacing; window: StartWindow }>();
  const limiterOf = (operation: ServiceOperation): { limiter: StartSpacing; window: StartWindow } => {
    let entry = perOperation.get(operation);
    if (!entry) {
      entry = {
        limiter: new StartSpacing(minTime, Date.now),
        // The same headroom over a whole second: 10 starts per 1,050 ms as they leave.
        window: new StartWindow(
          Math.max(1, Math.floor(options.requestsPerSecond)),
          1000 * SPACING_HEADROOM,
          // Date.now: the clock the spacing's timers keep (and tests' fake timers move).
          Date.now,
        ),
      };
      perOperation.set(operation, entry);
    }
    return entry;
  };
  // The in-flight place is taken first and the rate spacing applied inside it, so the
  // spacing holds at the moment the slot is granted; the job lasts until the slot is freed.
  const reserve = (operation: ServiceOperation): Promise<SendSlot> =>
    new Promise((granted) => {
      const { limiter, window } = limiterOf(operation);
      void inFlight.schedule(() =>
        limiter.schedule(() => new Promise<void>((free) => granted(grantedSlot(free, window)))),
      );
    });
  return {
    reserve,
    run: async (operation, attempt) => (await reserve(operation)).run(attempt),
  };
}
