import { CallQueue } from "../../src/core/call-queue";

/** "code#copy" names one request; the part before # is its code. */
const codeOf = (request: string): string => request.split("#")[0] ?? request;

function codes(count: number, prefix = 100): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix + i}-1-1`);
}

function queueOf(requests: readonly string[], perCall = 40): CallQueue<string> {
  const queue = new CallQueue(codeOf, perCall);
  for (const request of requests) queue.add(request);
  return queue;
}

function drain(queue: CallQueue<string>): string[][] {
  const calls: string[][] = [];
  while (queue.size > 0) calls.push(queue.take());
  return calls;
}

describe("CallQueue", () => {
  // Requests, calls they need at least (max(ceil(n / 40), most copies of one code)).
  test.each([
    ["nothing", [], 0],
    ["40 distinct codes", codes(40), 1],
    ["41 distinct codes", codes(41), 2],
    ["one code with two currencies", ["1-1-1#a", "1-1-1#b"], 2],
    ["40 codes plus one repeated code", [...codes(40), "100-1-1#b"], 2],
    ["40 codes plus two copies of a 41st", [...codes(40), "999-1-1#a", "999-1-1#b"], 2],
    ["80 codes with one code three times", [...codes(78), "5-5-5#a", "5-5-5#b", "5-5-5#c"], 3],
    // The W1 case the benchmark found: 200 codes, 18 of them asked in a second currency
    // after the first 200 arrived; taking calls in arrival order needed 7 calls.
    ["200 codes, 18 asked again at the end", [...codes(200), ...codes(18).map((c) => `${c}#b`)], 6],
    ["236 requests: 200 codes and 36 repeats", [...codes(200), ...codes(36, 150).map((c) => `${c}#b`)], 6],
  ])("%s: taken call by call in the fewest calls", (_case, requests, fewest) => {
    const queue = queueOf(requests);
    expect(queue.minimumCalls()).toBe(fewest);
    const calls = drain(queue);
    expect(calls).toHaveLength(fewest);
    for (const call of calls) {
      expect(call.length).toBeLessThanOrEqual(40);
      expect(new Set(call.map(codeOf)).size).toBe(call.length);
    }
    expect(calls.flat().sort()).toEqual([...requests].sort());
    expect(queue.minimumCalls()).toBe(0);
  });

  test("a call takes the most-repeated codes first, then the codes in the order they first arrived", () => {
    const queue = queueOf(["a", "b", "c#1", "c#2", "d"], 3);
    expect(queue.take()).toEqual(["c#1", "a", "b"]);
    expect(queue.take()).toEqual(["c#2", "d"]);
    expect(queue.size).toBe(0);
  });

  // Requests, calls asked about, whether that many full calls (perCall distinct codes each) exist.
  test.each([
    ["39 distinct codes", codes(39), 1, false],
    ["40 distinct codes", codes(40), 1, true],
    ["40 distinct codes, two calls", codes(40), 2, false],
    ["40 codes twice", [...codes(40), ...codes(40).map((c) => `${c}#b`)], 2, true],
    ["one code 40 times", Array.from({ length: 40 }, (_, i) => `1-1-1#${i}`), 1, false],
    ["79 codes", codes(79), 2, false],
    ["80 codes", codes(80), 2, true],
  ])("%s: fills(%#)", (_case, requests, calls, expected) => {
    expect(queueOf(requests).fills(calls)).toBe(expected);
  });

  test("new copies after a take are counted again", () => {
    const queue = queueOf(["a#1", "a#2", "b"], 2);
    expect(queue.take()).toEqual(["a#1", "b"]);
    queue.add("a#3");
    expect(queue.minimumCalls()).toBe(2);
    expect(drain(queue)).toEqual([["a#2"], ["a#3"]]);
  });
});

/**
 * What take() picked when it sorted the whole queue for every call: the reference its
 * scans must agree with (a stable sort by copies, most first; the earliest copy of each).
 */
function referenceDrain(requests: readonly string[], perCall: number): string[][] {
  const byCode = new Map<string, string[]>();
  for (const request of requests) {
    const copies = byCode.get(codeOf(request));
    if (copies) copies.push(request);
    else byCode.set(codeOf(request), [request]);
  }
  const calls: string[][] = [];
  while (byCode.size > 0) {
    const chosen = [...byCode.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, perCall);
    calls.push(
      chosen.map(([code, copies]) => {
        const first = copies.shift() as string;
        if (copies.length === 0) byCode.delete(code);
        return first;
      }),
    );
  }
  return calls;
}

describe("CallQueue picks as a sort of the whole queue would", () => {
  // Codes keep coming while calls are taken (a recalculation's cells arrive over seconds).
  test("with codes added between takes", () => {
    const perCall = 5;
    const queue = new CallQueue(codeOf, perCall);
    const reference = new Map<string, string[]>();
    const add = (request: string): void => {
      queue.add(request);
      const copies = reference.get(codeOf(request));
      if (copies) copies.push(request);
      else reference.set(codeOf(request), [request]);
    };
    const referenceTake = (): string[] =>
      [...reference.entries()]
        .sort((a, b) => b[1].length - a[1].length)
        .slice(0, perCall)
        .map(([code, copies]) => {
          const first = copies.shift() as string;
          if (copies.length === 0) reference.delete(code);
          return first;
        });
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 7; i++) add(`${100 + ((round * 7 + i * 3) % 11)}-1-1#${round}-${i}`);
      expect(queue.take()).toEqual(referenceTake());
    }
    while (queue.size > 0) expect(queue.take()).toEqual(referenceTake());
    expect(reference.size).toBe(0);
  });

  test.each([
    { name: "single copies only", seed: 1, codes: 500, maxCopies: 1, perCall: 40 },
    { name: "a few codes in two currencies", seed: 2, codes: 300, maxCopies: 2, perCall: 40 },
    { name: "many copies, small calls", seed: 3, codes: 60, maxCopies: 5, perCall: 7 },
    { name: "more copies than calls need", seed: 4, codes: 20, maxCopies: 9, perCall: 40 },
  ])("$name", ({ seed, codes: count, maxCopies, perCall }) => {
    // A small deterministic generator: the same queue every run.
    let state = seed;
    const next = (below: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % below;
    };
    const requests: string[] = [];
    for (let i = 0; i < count * 2; i++) {
      const code = `${100 + next(count)}-1-1`;
      const copies = requests.filter((request) => codeOf(request) === code).length;
      if (copies < maxCopies) requests.push(`${code}#${copies}`);
    }
    const queue = queueOf(requests, perCall);
    const expected = referenceDrain(requests, perCall);
    expect(drain(queue)).toEqual(expected);
    // And the fewest calls: nothing was left over for an extra one.
    expect(expected.length).toBe(queueOf(requests, perCall).minimumCalls());
  });
});
