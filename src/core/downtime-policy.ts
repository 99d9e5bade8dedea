// When the service is down and what PCD does about it. Two sources say so: the calendar
// (maintenance windows, release day: docs/service.md §8.3) and the service itself (a 503
// that names its end). During a known window no call is made at all, since it could only
// fail (after renewing a token for nothing); cells and the pane get one error that says
// until when. On release day the service is down "until the data is released", at the
// latest 22:00 US Central Time: any answer from it means the release is out. Through a team
// gateway calls still go in a window (it serves what it keeps; engine-core.ts decides), and
// its answers may be its copy: there only new data in the catalog, or the time the gateway
// read its catalog from the service, ends release day.
import type { ServiceReachability, ServiceState } from "./engine-api";
import { PcdError } from "./errors";
import { formatLocalTime } from "./http/classify";

export interface DowntimeParts {
  now(): number;
  /** The calendar's state (schedule.ts), told when the release was seen to be out. */
  scheduled(now: number, options: { releaseDoneAt?: number }): ServiceState;
  /** What the client's last calls observed (undefined where nothing observes calls). */
  reachability(): ServiceReachability | undefined;
  /** Formats an instant for the user (default: the host's locale and time zone). */
  formatTime?: (epochMs: number) => string;
  /**
   * Whether an answer shows the release is out (default: yes). Not through a team gateway: it
   * answers from what it keeps while the service is down, so only new data in the catalog does.
   */
  answersShowRelease?: () => boolean;
}

export class DowntimePolicy {
  /** When the release was seen to be out: an answer from the service, or new data. */
  private releaseDoneAt: number | undefined;

  constructor(private readonly parts: DowntimeParts) {}

  private answersShowRelease(): boolean {
    return this.parts.answersShowRelease?.() ?? true;
  }

  /** The calendar's state, with a maintenance the service announced itself (503 with an end). */
  state(): ServiceState {
    const now = this.parts.now();
    const scheduled = this.parts.scheduled(now, { releaseDoneAt: this.releaseDoneAt });
    const reachability = this.parts.reachability();
    if (!reachability) return scheduled;
    // An announced maintenance counts like a scheduled one until its end: no call could succeed.
    const announced = reachability.maintenanceUntil;
    if (scheduled.available && announced !== null && announced > now) {
      return { ...scheduled, available: false, reason: "maintenance", until: announced, reachability };
    }
    return { ...scheduled, reachability };
  }

  /**
   * The service answered at `at`: before this session (a catalog read kept in storage, not one
   * read while a release was awaited), or when a team gateway read the catalog it answers with.
   * A restart on release day must not close the service again once an answer told the release
   * is out. The calendar counts it only when it falls in today's release downtime.
   */
  answeredBefore(at: number): void {
    if (at > this.parts.now()) return;
    if (this.releaseDoneAt === undefined || at > this.releaseDoneAt) this.releaseDoneAt = at;
  }

  /** The service answered: on release day that means the release is out (data calls may go). */
  noteServiceAnswered(): void {
    if (this.answersShowRelease()) this.noteReleaseOut();
  }

  /** The catalog shows a newer month than before: the release is out, whoever answered. */
  noteNewData(): void {
    this.noteReleaseOut();
  }

  private noteReleaseOut(): void {
    const state = this.state();
    if (!state.available && state.reason === "release") this.releaseDoneAt = this.parts.now();
  }

  /**
   * The error of a call that is not made because the service is known to be down, or
   * undefined when it is not. `missing` says what the caller goes without; by default the
   * cell's cached data (or the lack of it) for `code`.
   */
  errorFor(code: string, hasCache: boolean, missing?: string): PcdError | undefined {
    const state = this.state();
    if (state.available || state.until === null) return undefined;
    const format = this.parts.formatTime ?? formatLocalTime;
    const tail = missing ?? (hasCache ? `showing cached data for ${code}` : `no cached data for ${code} yet`);
    if (state.until === state.reachability?.maintenanceUntil) {
      return new PcdError(
        "unavailable",
        `The service said it is in maintenance until ${format(state.until)} (your time); ${tail}.`,
        { until: state.until, downtime: "announced" },
      );
    }
    const what = state.reason === "release" ? "for the monthly data release" : "for maintenance";
    const deadline = state.reason === "release" ? " at the latest" : "";
    return new PcdError(
      "unavailable",
      `The service is down ${what} until 22:00 US Central Time${deadline} (${format(state.until)} your time); ${tail}.`,
      { until: state.until, downtime: state.reason === "release" ? "release" : "maintenance" },
    );
  }
}
