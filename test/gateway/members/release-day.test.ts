import { DEFAULT_SETTINGS } from "../../../src/core/settings";
import {
  agreedReleaseDay,
  DEFAULT_RELEASE_BUSINESS_DAY,
  releaseBusinessDayOf,
} from "../../../src/gateway/members/release-day";

test.each<[string | undefined, number | null]>([
  [undefined, 3],
  ["1", 1],
  ["10", 10],
  ["03", 3],
  ["0", null],
  ["11", null],
  ["3.5", null],
  ["-1", null],
  [" 3", null],
  ["three", null],
])("--release-day %p reads as %p", (text, day) => {
  expect(releaseBusinessDayOf(text)).toBe(day);
});

test.each<[string, string | null, number | undefined, number, string | null, number | string | null]>([
  // case, kept (as the database keeps it), given, the day counted by, the note's "was", kept after
  ["nothing kept, nothing given: the default, nothing written", null, undefined, 3, null, null],
  ["nothing kept, a day given: it, kept", null, 5, 5, null, 5],
  ["a day kept, nothing given: the kept one", "5", undefined, 5, null, "5"],
  ["the same day given: nothing replaced", "5", 5, 5, null, 5],
  ["the same day kept as 05: nothing replaced", "05", 5, 5, null, 5],
  ["another day given: it replaces the kept one", "5", 3, 3, "5", 3],
  ["a kept value that is not a day: replaced, and named", "99", 3, 3, "'99', which was not a day", 3],
  [
    "a long unreadable value: named by its start",
    "x".repeat(30),
    4,
    4,
    `'${"x".repeat(20)}', which was not a day`,
    4,
  ],
])("agreedReleaseDay: %s", async (_case, kept, given, day, replaced, keptAfter) => {
  let stored: number | string | null = kept;
  const setting = {
    get: async () => (stored === null ? null : releaseBusinessDayOf(String(stored))),
    replace: async (next: number) => {
      const before = stored === null ? null : String(stored);
      stored = next;
      return before;
    },
  };
  expect(await agreedReleaseDay(setting, given)).toEqual({ day, replaced });
  expect(stored).toBe(keptAfter);
});

test("agreedReleaseDay refuses a day that is not one", async () => {
  const setting = { get: async () => null, replace: async () => null };
  await expect(agreedReleaseDay(setting, 11)).rejects.toThrow("--release-day expects");
});

test("the gateway's default release day is the add-in's", () => {
  expect(DEFAULT_RELEASE_BUSINESS_DAY).toBe(DEFAULT_SETTINGS.releaseBusinessDay);
});
