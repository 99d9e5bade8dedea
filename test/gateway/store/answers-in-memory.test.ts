import { AnswersInMemory } from "../../../src/gateway/store/answers-in-memory";
import type { CachedAnswer } from "../../../src/gateway/store/gateway-store";

const answer = (key: string, fingerprint: string, recordJson = `{"code":"${key}"}`): CachedAnswer => ({
  key,
  recordJson,
  fingerprint,
  boughtAt: new Date("2026-11-10T15:00:00Z"),
});

describe("AnswersInMemory.current", () => {
  test.each<[string, CachedAnswer | null, string | null, boolean]>([
    ["kept at the catalog's fingerprint", answer("a", "f1"), "f1", true],
    ["kept at an older fingerprint (the series changed since)", answer("a", "f1"), "f2", false],
    ["a series the catalog does not list (no fingerprint)", answer("a", "f1"), null, false],
    ["never kept", null, "f1", false],
  ])("%s", (_case, kept, fingerprint, served) => {
    const memory = new AnswersInMemory();
    if (kept !== null) memory.keep(kept);
    expect(memory.current("a", fingerprint)).toEqual(served ? kept : undefined);
  });

  test("a newer answer for the key replaces the older one", () => {
    const memory = new AnswersInMemory();
    memory.keep(answer("a", "f1", "old"));
    memory.keep(answer("a", "f2", "new"));
    expect(memory.current("a", "f1")).toBeUndefined();
    expect(memory.current("a", "f2")?.recordJson).toBe("new");
  });
});

test("past its size the least recently served answers go first", () => {
  // Each answer is 1 + 10 characters: three fit in 35, not four.
  const memory = new AnswersInMemory(35);
  for (const key of ["a", "b", "c"]) memory.keep(answer(key, "f", "x".repeat(10)));
  expect(memory.current("a", "f")).toBeDefined(); // "a" is now the most recently served
  memory.keep(answer("d", "f", "x".repeat(10)));
  expect(["a", "b", "c", "d"].filter((key) => memory.current(key, "f") !== undefined)).toEqual([
    "a",
    "c",
    "d",
  ]);
  expect(memory.size).toBe(3);
});
