// What the preview page has under way that a jump of its clock would cut short. A browser
// test moves the page's clock (playwright's clock.fastForward) to live through hours in
// seconds; the jump fires every timer due by then, and two of those timers belong to work in
// progress: a call's own timeout (the cell would say the service gave no answer) and the
// storage's timeout (the engine would give up IndexedDB for memory). So the tests move the
// clock only when this page has no fetch without its whole answer and no IndexedDB opening
// or transaction unfinished. The counts are exact, read from the page itself, rather than
// inferred from how long the emulator has been quiet.

export interface PageActivity {
  /** Fetches sent whose answer has not been read to its end. */
  fetches(): number;
  /** IndexedDB openings and transactions not yet finished. */
  storage(): number;
}

/** The page's globals this counts through (the window; a test passes stand-ins). */
export interface ActivityScope {
  fetch: typeof fetch;
  IDBFactory?: { prototype: Pick<IDBFactory, "open"> };
  IDBDatabase?: { prototype: Pick<IDBDatabase, "transaction"> };
}

/** The action, run at the first call only (work has several ways to end: the first counts). */
function once(action: () => unknown): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}

/** Counts, from now on, the scope's fetches and IndexedDB work; install before anything fetches. */
export function countPageActivity(scope: ActivityScope): PageActivity {
  let fetches = 0;
  let storage = 0;

  const sendFetch = scope.fetch.bind(scope);
  scope.fetch = async (input, init) => {
    fetches += 1;
    const finish = once(() => (fetches -= 1));
    try {
      const response = await sendFetch(input, init);
      // The caller reads the body (or not); a copy read to its end tells when the whole
      // answer is in, which is when the caller's timeout for it stops mattering.
      response.clone().arrayBuffer().then(finish, finish);
      return response;
    } catch (error) {
      finish();
      throw error;
    }
  };

  /** Counts one piece of IndexedDB work until the first of its ending events. */
  const track = (target: EventTarget, endings: readonly string[]): void => {
    storage += 1;
    const finish = once(() => (storage -= 1));
    for (const ending of endings) target.addEventListener(ending, finish, { once: true });
  };

  /** A method that counts the IndexedDB object it makes until one of its ending events. */
  const counted = <Self, Args extends unknown[], Made extends EventTarget>(
    method: (this: Self, ...args: Args) => Made,
    endings: readonly string[],
  ) =>
    function (this: Self, ...args: Args): Made {
      const made = method.apply(this, args);
      track(made, endings);
      return made;
    };
  const factory = scope.IDBFactory?.prototype;
  if (factory) factory.open = counted(factory.open, ["success", "error"]);
  const database = scope.IDBDatabase?.prototype;
  // A failed request's "error" bubbles to its transaction, which then aborts: only
  // "complete" and "abort" end one.
  if (database) database.transaction = counted(database.transaction, ["complete", "abort"]);

  return { fetches: () => fetches, storage: () => storage };
}
