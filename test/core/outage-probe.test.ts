// The outage probe: one cheap call now and then while the service is failing or out of
// reach, backing off, and none once it answers or outside an outage.
import { OUTAGE_PROBE_DELAYS_MS, OutageProbe } from "../../src/core/outage-probe";
import { HeldTimers } from "../support/held-timers";

beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2026, 10, 10, 18) }));
afterEach(() => jest.useRealTimers());

function probe(outage: { now: boolean }) {
  const at: number[] = [];
  const started = Date.now();
  const subject = new OutageProbe({
    inOutage: () => outage.now,
    probe: async () => {
      at.push(Date.now() - started);
    },
  });
  return { subject, at };
}

async function advance(ms: number): Promise<void> {
  await jest.advanceTimersByTimeAsync(ms);
}

test("in an outage it probes after 1, 5 and 15 minutes, then every 15 minutes", async () => {
  const outage = { now: true };
  const { subject, at } = probe(outage);
  subject.update();
  await advance(2 * 60 * 60_000);
  const minutes = at.map((ms) => ms / 60_000);
  expect(minutes).toEqual([1, 6, 21, 36, 51, 66, 81, 96, 111]);
  expect(OUTAGE_PROBE_DELAYS_MS).toHaveLength(3);
});

test.each([
  ["the service answers (the condition is up)", false],
  ["a known downtime begins (the condition is a maintenance)", false],
])("no probe once %s", async (_case, stillOutage) => {
  const outage = { now: true };
  const { subject, at } = probe(outage);
  subject.update();
  await advance(60_000);
  expect(at).toHaveLength(1);
  outage.now = stillOutage;
  subject.update();
  await advance(24 * 60 * 60_000);
  expect(at).toHaveLength(1);
  expect(jest.getTimerCount()).toBe(0);
});

test("no probe when there is no outage", async () => {
  const { subject, at } = probe({ now: false });
  subject.update();
  await advance(24 * 60 * 60_000);
  expect(at).toEqual([]);
});

test("a downtime that begins in an outage: no probe in it, one when it ends and the outage is still on record", async () => {
  const outage = { now: true };
  const at: number[] = [];
  const started = Date.now();
  const downtimeEnds = started + 3 * 60 * 60_000;
  let inDowntime = false;
  const subject = new OutageProbe({
    inOutage: () => outage.now && !inDowntime,
    probe: async () => {
      at.push(Date.now() - started);
    },
    outageResumesAt: () => (inDowntime && outage.now ? downtimeEnds : null),
    now: () => Date.now(),
  });
  subject.update();
  await advance(60_000);
  expect(at).toHaveLength(1);
  // The maintenance begins: the condition is the downtime, not the outage.
  inDowntime = true;
  subject.update();
  await advance(3 * 60 * 60_000 - 60_000 - 1);
  expect(at).toHaveLength(1);
  // It ends: the outage seen before it is back on record, and the probe looks again.
  inDowntime = false;
  await advance(2_000);
  expect(at).toHaveLength(2);
  subject.update();
  expect(jest.getTimerCount()).toBe(1);
});

test("its timers are the injected scheduler's: none of the real ones is set", async () => {
  const timers = new HeldTimers();
  const at: number[] = [];
  const subject = new OutageProbe({
    inOutage: () => true,
    probe: async () => {
      at.push(timers.set);
    },
    scheduler: timers,
  });
  subject.update();
  expect(timers.pending.map((timer) => timer.ms)).toEqual([OUTAGE_PROBE_DELAYS_MS[0]]);
  expect(jest.getTimerCount()).toBe(0);
  timers.fire();
  await advance(0);
  expect(at).toEqual([1]);
  // The probe's outcome arms the next one, on the same scheduler.
  expect(timers.pending.map((timer) => timer.ms)).toEqual([OUTAGE_PROBE_DELAYS_MS[1]]);
});
