import { InFlightLimit } from "../../../src/core/http/in-flight-limit";

/** A job held until released, recording when it starts. */
function heldJobs(count: number) {
  const started: number[] = [];
  const releases = new Map<number, (value: number) => void>();
  const fail = new Map<number, (error: Error) => void>();
  const jobs = Array.from(
    { length: count },
    (_, i) => () =>
      new Promise<number>((resolve, reject) => {
        started.push(i);
        releases.set(i, resolve);
        fail.set(i, reject);
      }),
  );
  return {
    started,
    jobs,
    release: (i: number) => releases.get(i)?.(i),
    fail: (i: number) => fail.get(i)?.(new Error(`job ${i} failed`)),
  };
}

const settle = () => new Promise<void>((resume) => setImmediate(resume));

test.each([
  ["one place: one at a time, in order", 1, [[0], [0, 1], [0, 1, 2]]],
  [
    "two places: the third waits for the first to end",
    2,
    [
      [0, 1],
      [0, 1, 2],
      [0, 1, 2],
    ],
  ],
  [
    "more places than jobs: all at once",
    5,
    [
      [0, 1, 2],
      [0, 1, 2],
      [0, 1, 2],
    ],
  ],
])("%s", async (_name, limit, startedAfterEachRelease) => {
  const limiter = new InFlightLimit(limit);
  const { started, jobs, release } = heldJobs(3);
  const results = jobs.map((job) => limiter.schedule(job));
  expect(started).toEqual(startedAfterEachRelease[0]);
  release(0);
  await settle();
  expect(started).toEqual(startedAfterEachRelease[1]);
  release(1);
  await settle();
  expect(started).toEqual(startedAfterEachRelease[2]);
  release(2);
  await expect(Promise.all(results)).resolves.toEqual([0, 1, 2]);
});

test("a failed job passes its error on and frees its place", async () => {
  const limiter = new InFlightLimit(1);
  const { started, jobs, fail, release } = heldJobs(2);
  const first = limiter.schedule(jobs[0]!);
  const second = limiter.schedule(jobs[1]!);
  fail(0);
  await expect(first).rejects.toThrow("job 0 failed");
  await settle();
  expect(started).toEqual([0, 1]);
  release(1);
  await expect(second).resolves.toBe(1);
});

test("a job that throws before returning a promise rejects and frees its place", async () => {
  const limiter = new InFlightLimit(1);
  const thrown = limiter.schedule(() => {
    throw new Error("at once");
  });
  await expect(thrown).rejects.toThrow("at once");
  await expect(limiter.schedule(async () => "next")).resolves.toBe("next");
});
