// The service's return is told once per return: a row per sequence of what the engine saw.
import { ServiceReturn } from "../../src/core/service-return";
import { createHarness } from "./support/engine-harness";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

type Step = "up" | "down" | "refused-in-downtime";

test.each<[string, boolean, Step[], number]>([
  ["answering all along: nothing to tell", true, ["up", "up", "up"], 0],
  ["an outage and the next answer: told once", true, ["down", "down", "up", "up"], 1],
  ["two outages, two returns", true, ["down", "up", "down", "up"], 2],
  ["down when the engine started, then answering", false, ["up"], 1],
  // A known downtime makes no call, so no call outcome says "down": the refusal does.
  ["a downtime the engine refused calls in, then seen over", true, ["refused-in-downtime", "up"], 1],
])("%s", async (_case, upAtStart, steps, told) => {
  let up = upAtStart;
  const events = new ServiceReturn(() => up);
  let heard = 0;
  events.onBack(() => (heard += 1));
  for (const step of steps) {
    if (step === "refused-in-downtime") events.noteDown();
    else {
      up = step === "up";
      events.check();
    }
    await Promise.resolve();
  }
  expect(heard).toBe(told);
});

test("a listener that throws does not keep the others from hearing", async () => {
  let up = false;
  const events = new ServiceReturn(() => up);
  const heard: string[] = [];
  events.onBack(() => {
    throw new Error("boom");
  });
  events.onBack(() => heard.push("second"));
  up = true;
  events.check();
  await Promise.resolve();
  expect(heard).toEqual(["second"]);
});

test("on release day, the catalog's first answer tells waiting cells the release is out", async () => {
  const service = new FakeService();
  service.addSeries(seriesInfo({ code: "1-1-1" }));
  const h = createHarness({ service });
  await h.engine.catalog();
  const request = await h.engine.resolve("1-1-1", null, null);
  h.clock.now += 60_000;
  h.schedule.releaseStart = h.clock.now;
  h.schedule.down = { reason: "release", until: h.clock.now + 3_600_000 };
  let told = 0;
  h.engine.onServiceBack(() => (told += 1));
  // A cell asks during the downtime: no call, the downtime's error.
  await expect(h.engine.getSeries(request)).rejects.toMatchObject({ kind: "unavailable" });
  await Promise.resolve();
  expect(told).toBe(0);
  // The data is published: the next Series Info answers (the cost preview the user opens reads it).
  h.clock.now += 60_000;
  await h.engine.planRefresh({ recheck: true });
  await Promise.resolve();
  expect(h.engine.serviceState().available).toBe(true);
  expect(told).toBe(1);
});
