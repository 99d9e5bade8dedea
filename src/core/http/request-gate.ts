// Rate control in front of every service call: at most N requests per second per
// operation (docs/service.md §8.1: 10 per second per operation) and a global cap on calls in
// flight. p-limit holds the cap (in arrival order); one p-throttle per operation grants its
// slots 1000/N ms apart (plus headroom), so no one-second window holds more than N starts of
// it; a StartWindow per operation checks the starts again as they actually leave.
// p-throttle loads with the first paced call (a chunk of its own in the add-in): Excel starts
// the functions runtime without it, and a call goes to the network anyway.
import pLimit from "p-limit";
import { errorMessage, PcdError } from "../errors";
import type { SendSlot } from "../service-client";
import type { ServiceOperation } from "./paths";
import { StartWindow } from "./start-window";
import { ENGINE_DEFAULTS } from "../defaults";

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

type PThrottle = (typeof import("p-throttle"))["default"];

let throttleModule: Promise<PThrottle> | undefined;

/** p-throttle, loaded once; a failed load is tried again by the next call. */
async function loadThrottle(): Promise<PThrottle> {
  throttleModule ??= import(/* webpackChunkName: "call-pacing" */ "p-throttle").then(
    (module) => module.default,
  );
  try {
    return await throttleModule;
  } catch (error) {
    throttleModule = undefined;
    throw new PcdError(
      "network",
      `The add-in could not load its call pacing (${errorMessage(error)}): check the connection and try again.`,
    );
  }
}

/** One operation's limits: the spacing of its grants and the window of its starts. */
interface OperationLimits {
  /** Calls its argument at the operation's next turn, one turn per spacing. */
  spaced: (grant: () => Promise<void>) => Promise<void>;
  window: StartWindow;
}

/** Waits until the operation's start window has room, then counts the start. */
async function startInWindow(window: StartWindow): Promise<void> {
  // Check and record run in one synchronous step, so two waiting slots cannot both pass.
  for (let delay = window.delayMs(); delay > 0; delay = window.delayMs()) {
    await new Promise((resume) => setTimeout(resume, delay));
  }
  window.record();
}

/** A granted slot: `free` ends the job that holds the in-flight place; no window: unpaced. */
function grantedSlot(free: () => void, window: StartWindow | null): SendSlot {
  let used = false;
  return {
    async run<T>(attempt: () => Promise<T>): Promise<T> {
      if (used) throw new Error("A send slot runs one request only.");
      used = true;
      try {
        if (window) await startInWindow(window);
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
  const limitsOf = (operation: ServiceOperation, pThrottle: PThrottle): OperationLimits => {
    let entry = perOperation.get(operation);
    if (!entry) {
      entry = {
        // One call per interval: p-throttle's windowed mode then starts each call
        // spacingMs after the one before, or at once after a pause (its clock is Date.now,
        // which tests' fake timers move).
        spaced: pThrottle({ limit: 1, interval: spacingMs })((grant: () => Promise<void>) => grant()),
        // The same headroom over a whole second: 10 starts per 1,050 ms as they leave.
        window: new StartWindow(
          Math.max(1, Math.floor(options.requestsPerSecond)),
          1000 * SPACING_HEADROOM,
          // Date.now: the clock the throttle's timers keep (and tests' fake timers move).
          Date.now,
        ),
      };
      perOperation.set(operation, entry);
    }
    return entry;
  };
  // The in-flight place is taken first and the rate spacing applied inside it, so the
  // spacing holds at the moment the slot is granted; the place is held until the slot is
  // freed. A slot is always granted from a timer: p-throttle's own when it waits, a zero
  // delay when it calls at once, so the work queued in the same turn of the event loop is
  // there when the holder chooses what to send.
  const reserve = (operation: ServiceOperation): Promise<SendSlot> =>
    new Promise((granted, failed) => {
      if (options.paced?.() === false) {
        void inFlightViaGateway(
          () => new Promise<void>((free) => setTimeout(() => granted(grantedSlot(free, null)), 0)),
        );
        return;
      }
      // Calls reserved together wait for the one load and queue in the order they came; a
      // failure to load or to set the pacing up fails the call instead of leaving it waiting.
      loadThrottle()
        .then((pThrottle) => queuePaced(limitsOf(operation, pThrottle), granted))
        .catch(failed);
    });
  const queuePaced = ({ spaced, window }: OperationLimits, granted: (slot: SendSlot) => void): void =>
    void inFlight(() => {
      let calledAtOnce = true;
      const turn = spaced(
        () =>
          new Promise<void>((free) => {
            const grant = (): void => granted(grantedSlot(free, window));
            if (calledAtOnce) setTimeout(grant, 0);
            else grant();
          }),
      );
      calledAtOnce = false;
      return turn;
    });
  return {
    reserve,
    run: async (operation, attempt) => (await reserve(operation)).run(attempt),
  };
}
