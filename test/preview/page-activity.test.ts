import { IDBDatabase, IDBFactory, indexedDB } from "fake-indexeddb";
import { countPageActivity, type ActivityScope, type PageActivity } from "../../src/preview/page-activity";
import { until } from "../support/until";

/** A fetch whose answers the test releases (or refuses) one by one. */
function heldFetch() {
  const held: Array<{ answer: (body: string) => void; refuse: (error: Error) => void }> = [];
  const fetch: typeof globalThis.fetch = () =>
    new Promise<Response>((resolve, reject) => {
      held.push({ answer: (body) => resolve(new Response(body)), refuse: reject });
    });
  return { fetch, held };
}

/** Lets the page's promise callbacks run (a held fetch stays held through them). */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits until the count of fetches is `count` (the copy of a body is read on its own time). */
function fetchesReach(activity: PageActivity, count: number): Promise<number> {
  return until(
    () => activity.fetches(),
    (now) => now === count,
    `${count} fetches counted`,
    // Within the unit lane's 10 s a test, so the wait's own message is the one shown.
    { timeoutMs: 5_000 },
  );
}

describe("countPageActivity: fetches", () => {
  const cases: Array<{
    name: string;
    end: (call: { answer: (body: string) => void; refuse: (error: Error) => void }) => void;
    readBody: boolean;
  }> = [
    { name: "an answer whose body the caller reads", end: (call) => call.answer("{}"), readBody: true },
    { name: "an answer whose body the caller leaves", end: (call) => call.answer("{}"), readBody: false },
    {
      name: "a refused call (network failure, abort)",
      end: (call) => call.refuse(new TypeError("failed")),
      readBody: false,
    },
  ];

  it.each(cases)("$name counts while in flight and not after", async ({ end, readBody }) => {
    const { fetch, held } = heldFetch();
    const scope: ActivityScope = { fetch };
    const activity = countPageActivity(scope);

    const sent = scope.fetch("http://127.0.0.1/api");
    expect(activity.fetches()).toBe(1);
    await settle();
    expect(activity.fetches()).toBe(1); // held: still in flight

    const call = held[0];
    if (call === undefined) throw new Error("the fetch did not reach the network");
    end(call);
    const outcome = await sent.then(
      async (response) => (readBody ? response.text() : "unread"),
      (error: unknown) => error,
    );
    await fetchesReach(activity, 0);
    if (readBody) expect(outcome).toBe("{}");
  });

  it("counts each of several fetches until its own answer is in", async () => {
    const { fetch, held } = heldFetch();
    const scope: ActivityScope = { fetch };
    const activity = countPageActivity(scope);
    const first = scope.fetch("http://127.0.0.1/a");
    const second = scope.fetch("http://127.0.0.1/b");
    expect(activity.fetches()).toBe(2);
    held[1]?.answer("second");
    await expect((await second).text()).resolves.toBe("second");
    await fetchesReach(activity, 1);
    held[0]?.answer("first");
    await expect((await first).text()).resolves.toBe("first");
    await fetchesReach(activity, 0);
  });
});

/** Waits for one of an IndexedDB object's events, failing on the others. */
function eventOf(target: EventTarget, wanted: string, failing: string[] = ["error"]): Promise<Event> {
  return new Promise((resolve, reject) => {
    target.addEventListener(wanted, resolve, { once: true });
    for (const name of failing)
      target.addEventListener(name, () => reject(new Error(`${name} event`)), { once: true });
  });
}

describe("countPageActivity: IndexedDB", () => {
  const scope: ActivityScope = {
    fetch: () => Promise.reject(new Error("no fetch here")),
    IDBFactory,
    IDBDatabase,
  };
  const activity = countPageActivity(scope);
  let database: globalThis.IDBDatabase;

  beforeAll(async () => {
    const opening = indexedDB.open("page-activity", 1);
    expect(activity.storage()).toBe(1);
    opening.addEventListener("upgradeneeded", () => opening.result.createObjectStore("kept"));
    await eventOf(opening, "success");
    database = opening.result;
    expect(activity.storage()).toBe(0);
  });

  afterAll(() => database.close());

  const cases: Array<{ name: string; work: (store: IDBObjectStore) => void; ending: "complete" | "abort" }> =
    [
      { name: "a write that completes", work: (store) => store.put("value", "key"), ending: "complete" },
      { name: "a read that completes", work: (store) => store.get("key"), ending: "complete" },
      {
        name: "a transaction whose request fails (it aborts)",
        // Adding under a key that exists fails the request, then the transaction.
        work: (store) => {
          store.add("again", "key");
        },
        ending: "abort",
      },
      {
        name: "a transaction the page aborts",
        work: (store) => store.transaction.abort(),
        ending: "abort",
      },
    ];

  it.each(cases)("$name is counted until it ends", async ({ work, ending }) => {
    const transaction = database.transaction("kept", "readwrite");
    expect(activity.storage()).toBe(1);
    const ended = eventOf(transaction, ending, []);
    work(transaction.objectStore("kept"));
    await ended;
    expect(activity.storage()).toBe(0);
  });
});
