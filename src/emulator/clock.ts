// The emulator's clock is an offset clock: it starts at --now and advances with real
// time, so tokens expire and schedules move naturally, while /__admin/clock can jump it
// anywhere. The real time source is injectable for unit tests.

export type TimeSource = () => number;

export class OffsetClock {
  private offsetMs: number;

  constructor(
    start: Date | undefined,
    private readonly realNow: TimeSource = Date.now,
  ) {
    this.offsetMs = start === undefined ? 0 : start.getTime() - realNow();
  }

  now(): Date {
    return new Date(this.realNow() + this.offsetMs);
  }

  set(instant: Date): void {
    this.offsetMs = instant.getTime() - this.realNow();
  }
}
