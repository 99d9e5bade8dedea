import { KeySlots } from "../../src/functions/key-slots";

type Step = ["set", string, number] | ["delete", string];

/** Runs the steps on KeySlots and on a Map: both must hold the same keys and values. */
function replay(steps: readonly Step[]): { slots: KeySlots<number>; map: Map<string, number> } {
  const slots = new KeySlots<number>();
  const map = new Map<string, number>();
  for (const step of steps) {
    if (step[0] === "set") {
      slots.set(step[1], step[2]);
      map.set(step[1], step[2]);
    } else {
      expect(slots.delete(step[1])).toBe(map.delete(step[1]));
    }
  }
  return { slots, map };
}

function contents(slots: KeySlots<number>): Array<[string, number]> {
  const seen: Array<[string, number]> = [];
  slots.forEach((value, key) => seen.push([key, value]));
  return seen.sort(([a], [b]) => a.localeCompare(b));
}

test.each<[string, Step[]]>([
  ["nothing", []],
  ["one key", [["set", "a", 1]]],
  [
    "one key set twice",
    [
      ["set", "a", 1],
      ["set", "a", 2],
    ],
  ],
  [
    "two keys",
    [
      ["set", "a", 1],
      ["set", "b", 2],
    ],
  ],
  [
    "three keys, the second set again",
    [
      ["set", "a", 1],
      ["set", "b", 2],
      ["set", "c", 3],
      ["set", "b", 4],
    ],
  ],
  [
    "the first deleted",
    [
      ["set", "a", 1],
      ["set", "b", 2],
      ["delete", "a"],
    ],
  ],
  [
    "the first deleted, then the second set again",
    [
      ["set", "a", 1],
      ["set", "b", 2],
      ["delete", "a"],
      ["set", "b", 5],
    ],
  ],
  [
    "the first deleted, then a new key",
    [
      ["set", "a", 1],
      ["set", "b", 2],
      ["delete", "a"],
      ["set", "c", 3],
    ],
  ],
  [
    "a key never set deleted",
    [
      ["set", "a", 1],
      ["delete", "z"],
    ],
  ],
  [
    "everything deleted",
    [
      ["set", "a", 1],
      ["set", "b", 2],
      ["delete", "b"],
      ["delete", "a"],
    ],
  ],
])("%s: the same keys and values as a Map", (_case, steps) => {
  const { slots, map } = replay(steps);
  expect(slots.size).toBe(map.size);
  expect(contents(slots)).toEqual([...map.entries()].sort(([a], [b]) => a.localeCompare(b)));
  for (const key of ["a", "b", "c", "z"]) {
    expect(slots.has(key)).toBe(map.has(key));
    expect(slots.get(key)).toBe(map.get(key));
  }
});

test("forEach may delete the key it is given", () => {
  const { slots } = replay([
    ["set", "a", 1],
    ["set", "b", 2],
    ["set", "c", 3],
  ]);
  slots.forEach((_value, key) => {
    if (key !== "b") slots.delete(key);
  });
  expect(contents(slots)).toEqual([["b", 2]]);
});

test("clear empties every slot", () => {
  const { slots } = replay([
    ["set", "a", 1],
    ["set", "b", 2],
  ]);
  slots.clear();
  expect(slots.size).toBe(0);
  expect(contents(slots)).toEqual([]);
});
