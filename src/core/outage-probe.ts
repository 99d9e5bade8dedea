// While the engine's calls see the service failing or out of reach, nothing may call it
// again for a long time: cached cells make no call, and cells that failed stop retrying
// after 15 minutes. Then the engine could not learn that the service is back, and Status
// and the cells would keep the outage until someone acts. One cheap call (Data Limits: no
// data request) now and then tells: 1, 5 and 15 minutes after the outage began, then every
// 15 minutes (four calls an hour), and none once the service answers, in a known downtime
// (the probe looks again when it ends) or while nobody is signed in.
import { realScheduler, type Scheduler } from "./scheduler";

export const OUTAGE_PROBE_DELAYS_MS: readonly number[] = [60_000, 5 * 60_000, 15 * 60_000];

export interface OutageProbeParts {
  /** Whether the service's condition is an outage (failing or unreachable) now. */
  inOutage(): boolean;
  /** The cheap call; its outcome reaches the reachability record like any call's. */
  probe(): Promise<unknown>;
  /**
   * When a known downtime that began during an outage ends (epoch ms), else null. No call is
   * made in the downtime, and when it ends the outage the calls saw before it is still on
   * record with nothing left to call: the probe looks again then.
   */
  outageResumesAt?(): number | null;
  now?(): number;
  /** The probe's timers (default: the real ones); a host that is done does not wait for them. */
  scheduler?: Scheduler;
}

export class OutageProbe {
  /** Cancels the armed probe, if one is. */
  private timer: (() => void) | undefined;
  private attempt = 0;

  constructor(private readonly parts: OutageProbeParts) {}

  /** The condition may have changed: arm the next probe in an outage, stop otherwise. */
  update(): void {
    if (!this.safeInOutage()) {
      this.stop();
      this.attempt = 0;
      this.wakeAfterDowntime();
      return;
    }
    if (this.timer !== undefined) return;
    const delay = OUTAGE_PROBE_DELAYS_MS[Math.min(this.attempt, OUTAGE_PROBE_DELAYS_MS.length - 1)] ?? 0;
    this.attempt += 1;
    this.timer = this.after(delay);
  }

  /** Looks again when a downtime that interrupted an outage ends. */
  private wakeAfterDowntime(): void {
    let at: number | null = null;
    try {
      at = this.parts.outageResumesAt?.() ?? null;
    } catch {
      at = null;
    }
    const now = this.parts.now?.() ?? Date.now();
    // A downtime already over is no reason to wait: the condition tells the outage again.
    if (at === null || at <= now) return;
    this.timer = this.after(at - now + 1_000);
  }

  /** A host that is done (the headless runner) does not stay up for a probe. */
  private after(ms: number): () => void {
    return (this.parts.scheduler ?? realScheduler).after(ms, () => this.fire(), { background: true });
  }

  private stop(): void {
    this.timer?.();
    this.timer = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    if (!this.safeInOutage()) {
      this.attempt = 0;
      this.wakeAfterDowntime();
      return;
    }
    void this.parts
      .probe()
      .catch(() => undefined)
      .finally(() => this.update());
  }

  private safeInOutage(): boolean {
    try {
      return this.parts.inOutage();
    } catch {
      return false;
    }
  }
}
