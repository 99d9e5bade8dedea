import path from "node:path";
import { summarise } from "../../bench/cpu-profile";

const ROOT = path.join(__dirname, "..", "..");

function node(id: number, functionName: string, url = "", lineNumber = 0) {
  return { id, callFrame: { functionName, url, lineNumber } };
}

test("self time per function: each sample counts until the next, idle left out, ranked", () => {
  const profile = {
    nodes: [
      node(1, "(root)"),
      node(2, "(idle)"),
      node(3, "deliver", `file://${ROOT}/src/core/change-events.ts`, 9),
      node(4, "(garbage collector)"),
      node(5, "deliver", `file://${ROOT}/src/core/change-events.ts`, 9),
    ],
    startTime: 0,
    endTime: 100,
    samples: [3, 2, 4, 5, 3],
    // Gap before each sample; the time of sample i is the gap before sample i + 1.
    timeDeltas: [0, 2000, 5000, 1000, 3000],
  };
  expect(summarise(profile, 5)).toEqual([
    { name: "deliver (src/core/change-events.ts)", selfMs: 5, percent: (100 * 5) / 6 },
    { name: "(garbage collector)", selfMs: 1, percent: 100 / 6 },
  ]);
  expect(summarise(profile, 1)).toHaveLength(1);
});
