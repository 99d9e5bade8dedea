// Rate control in front of every service call: at most N requests per second per
// operation (docs/service.md §8.1: 10 per second per operation) and a global cap on calls in
// flight. p-limit holds the cap (in arrival order); each operation's turns are granted
// 1000/N ms apart (plus headroom), so no one-second window holds more than N starts of it; a
// StartWindow per operation checks the starts again as they actually leave.
//
// The spacing is written here rather than taken from p-throttle (which the gateway's upstream
// client uses): every wait of the gate goes through the timers it is given, so that a test
// that drives the engine's clock knows when the engine is pacing its calls (the fault lab
// moves its clock only when no call is on its way), and p-throttle keeps its own timers.
import pLimit from "p-limit";
import type { SendSlot } from "../service-client";
import type { ServiceOperation } from "./paths";
import { StartWindow } from "./start-window";
import { ENGINE_DEFAULTS } from "../defaults";
import { realPacing, type PacingTimers } from "../scheduler";

export interface RequestGateOptions {
  requestsPerSecond: number;
  maxInFlight: number;
  /** The in-flight cap while calls are not paced (through a team gateway). */
  gatewayMaxInFlight?: number;
  /**
   * Whether calls are paced at requestsPerSecond now (asked per call). A team gateway paces
   * its own calls to the service and answers kept data at once: its members' engines keep
   * only the in-flight cap, or a warm member would wait 100 ms per call for nothing.
   */
  paced?: () => boolean;
}

export const DEFAULT_REQUESTS_PER_SECOND = ENGINE_DEFAULTS.requestsPerSecond;
export const DEFAULT_MAX_IN_FLIGHT = ENGINE_DEFAULTS.maxInFlight;
const DEFAULT_GATEWAY_MAX_IN_FLIGHT = ENGINE_DEFAULTS.gatewayMaxInFlight;
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

/** One operation's limits: the spacing of its grants and the window of its starts. */
interface OperationLimits {
  /** Calls its argument at the operation's next turn, one turn per spacing. */
  spaced: (grant: () => Promise<void>) => Promise<void>;
  window: StartWindow;
}

/**
 * One operation's turns, in the order they were asked: each planned spacingMs after the one
 * before, or at once (a zero-delay timer) when that much has passed since. Turns are planned,
 * not counted from when the last timer fired, so a timer that fires late (the event loop busy
 * reading an answer) does not push every later turn back; the start window then checks the
 * starts as they really leave. A turn always comes from a timer, so the work queued in the
 * same turn of the event loop is there when the holder chooses what to send. Resolves with
 * what `grant` resolves with, when it does (the caller's in-flight place is held until then);
 * the next turn does not wait for it.
 */
function spacedTurns(spacingMs: number, timers: PacingTimers): OperationLimits["spaced"] {
  let nextAt = Number.NEGATIVE_INFINITY;
  let previous: Promise<void> = Promise.resolve();
  return (grant) => {
    const turn = previous.then(
      () =>
        new Promise<void>((resume) => {
          const now = timers.now();
          const at = Math.max(nextAt, now);
          nextAt = at + spacingMs;
          timers.after(at - now, resume);
        }),
    );
    // A turn whose timer could not be set fails its own call only; the turns after it go on.
    previous = turn.catch(() => undefined);
    return turn.then(grant);
  };
}

/** Waits until the operation's start window has room, then counts the start. */
async function startInWindow(window: StartWindow, timers: PacingTimers): Promise<void> {
  // Check and record run in one synchronous step, so two waiting slots cannot both pass.
  for (let delay = window.delayMs(); delay > 0; delay = window.delayMs()) {
    await new Promise<void>((resume) => timers.after(delay, resume));
  }
  window.record();
}

/** A granted slot: `free` ends the job that holds the in-flight place; no window: unpaced. */
function grantedSlot(free: () => void, window: StartWindow | null, timers: PacingTimers): SendSlot {
  let used = false;
  return {
    async run<T>(attempt: () => Promise<T>): Promise<T> {
      if (used) throw new Error("A send slot runs one request only.");
      used = true;
      try {
        if (window) await startInWindow(window, timers);
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

/**
 * The gate. `timers` keeps the time of the waits (default: the real timers, the time the
 * service counts its rate in).
 */
export function createRequestGate(
  options: RequestGateOptions,
  timers: PacingTimers = realPacing,
): RequestGate {
  if (!(options.requestsPerSecond > 0)) {
    throw new RangeError(`requestsPerSecond must be positive, got ${options.requestsPerSecond}`);
  }
  const gatewayMaxInFlight = options.gatewayMaxInFlight ?? DEFAULT_GATEWAY_MAX_IN_FLIGHT;
  for (const [name, cap] of [
    ["maxInFlight", options.maxInFlight],
    ["gatewayMaxInFlight", gatewayMaxInFlight],
  ] as const) {
    if (!Number.isInteger(cap) || cap < 1)
      throw new RangeError(`${name} must be a positive integer, got ${cap}`);
  }
  const inFlight = pLimit(options.maxInFlight);
  const inFlightViaGateway = pLimit(gatewayMaxInFlight);
  // 5 % headroom: timers fire a millisecond early or late, and requests bunch up on the
  // way to the service; a window that sees 11 starts in 999 ms earns a 429.
  const spacingMs = Math.ceil((1000 / options.requestsPerSecond) * SPACING_HEADROOM);
  const perOperation = new Map<ServiceOperation, OperationLimits>();
  const limitsOf = (operation: ServiceOperation): OperationLimits => {
    let entry = perOperation.get(operation);
    if (!entry) {
      entry = {
        spaced: spacedTurns(spacingMs, timers),
        // The same headroom over a whole second: 10 starts per 1,050 ms as they leave.
        window: new StartWindow(
          Math.max(1, Math.floor(options.requestsPerSecond)),
          1000 * SPACING_HEADROOM,
          () => timers.now(),
        ),
      };
      perOperation.set(operation, entry);
    }
    return entry;
  };
  // The in-flight place is taken first and the rate spacing applied inside it, so the
  // spacing holds at the moment the slot is granted; the place is held until the slot is
  // freed. A wait that fails before the grant (its timer could not be set) fails the call
  // instead of leaving it waiting.
  const reserve = (operation: ServiceOperation): Promise<SendSlot> =>
    new Promise((granted, failed) => {
      if (options.paced?.() === false) {
        inFlightViaGateway(
          () => new Promise<void>((free) => timers.after(0, () => granted(grantedSlot(free, null, timers)))),
        ).catch(failed);
        return;
      }
      const { spaced, window } = limitsOf(operation);
      inFlight(() =>
        spaced(() => new Promise<void>((free) => granted(grantedSlot(free, window, timers)))),
      ).catch(failed);
    });
  return {
    reserve,
    run: async (operation, attempt) => (await reserve(operation)).run(attempt),
  };
}
