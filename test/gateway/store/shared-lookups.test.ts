import { SharedLookups } from "../../../src/gateway/store/shared-lookups";

/** A lookup whose answer the test gives, counting how often it was asked. */
function heldLookup() {
  const answers: Array<(value: string) => void> = [];
  const failures: Array<(error: Error) => void> = [];
  return {
    answers,
    failures,
    lookup: () =>
      new Promise<string>((resolve, reject) => {
        answers.push(resolve);
        failures.push(reject);
      }),
  };
}

test("lookups of one key under way at once share one query and its answer", async () => {
  const lookups = new SharedLookups<string>();
  const held = heldLookup();
  const first = lookups.get("ann", held.lookup);
  const second = lookups.get("ann", held.lookup);
  expect(held.answers).toHaveLength(1);
  held.answers[0]?.("Ann");
  await expect(Promise.all([first, second])).resolves.toEqual(["Ann", "Ann"]);
});

test("another key is asked on its own", async () => {
  const lookups = new SharedLookups<string>();
  const held = heldLookup();
  const ann = lookups.get("ann", held.lookup);
  const bob = lookups.get("bob", held.lookup);
  expect(held.answers).toHaveLength(2);
  held.answers[0]?.("Ann");
  held.answers[1]?.("Bob");
  await expect(Promise.all([ann, bob])).resolves.toEqual(["Ann", "Bob"]);
});

test("nothing is kept: a lookup after the answer asks the database again", async () => {
  const lookups = new SharedLookups<string>();
  const held = heldLookup();
  const before = lookups.get("ann", held.lookup);
  held.answers[0]?.("Ann");
  await before;
  const after = lookups.get("ann", held.lookup);
  expect(held.answers).toHaveLength(2);
  held.answers[1]?.("Ann, removed since");
  await expect(after).resolves.toBe("Ann, removed since");
});

test("a failed lookup fails every sharer, and the next lookup asks again", async () => {
  const lookups = new SharedLookups<string>();
  const held = heldLookup();
  const first = lookups.get("ann", held.lookup);
  const second = lookups.get("ann", held.lookup);
  held.failures[0]?.(new Error("the database is gone"));
  await expect(first).rejects.toThrow("the database is gone");
  await expect(second).rejects.toThrow("the database is gone");
  const again = lookups.get("ann", held.lookup);
  expect(held.answers).toHaveLength(2);
  held.answers[1]?.("Ann");
  await expect(again).resolves.toBe("Ann");
});
