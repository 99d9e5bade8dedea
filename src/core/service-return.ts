// Tells whoever waits on a retry (cells that failed for a passing reason) that the service
// answers again: after an outage, an unreachable spell, or a downtime the engine saw end (the
// release seen out on release day). Only the change from "not up" to "up" is told, once: a
// service that keeps answering tells nothing more, so a waiting cell is woken once per return,
// never in a loop.
import type { Unsubscribe } from "./engine-api";

export class ServiceReturn {
  private wasUp: boolean;
  private readonly listeners = new Set<() => void>();

  /** `isUp`: whether calls can be expected to succeed now (serviceCondition says "up"). */
  constructor(private readonly isUp: () => boolean) {
    this.wasUp = this.safeIsUp();
  }

  onBack(listener: () => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Something the condition depends on changed (a call's outcome, the release seen out). */
  check(): void {
    const up = this.safeIsUp();
    const back = up && !this.wasUp;
    this.wasUp = up;
    if (back) this.tell();
  }

  /**
   * Tells the waiting now, whatever the condition was: a downtime ended that did not stop the
   * calls (release day seen out through a team gateway), so no change to "up" shows it.
   */
  tell(): void {
    if (this.listeners.size === 0) return;
    // After the call that saw it has finished its own work: listeners start new calls.
    void Promise.resolve().then(() => {
      for (const listener of [...this.listeners]) {
        try {
          listener();
        } catch {
          // One listener's failure must not keep the others (other cells) waiting.
        }
      }
    });
  }

  /** A call was not made because of a known downtime: the service is not up now. */
  noteDown(): void {
    this.wasUp = false;
  }

  private safeIsUp(): boolean {
    try {
      return this.isUp();
    } catch {
      return false;
    }
  }
}
