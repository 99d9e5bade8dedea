import type { Engine, SeriesData } from "../../src/core/engine-api";
import { PcdError } from "../../src/core/errors";
import { LATEST_ONLY } from "../../src/core/series-need";
import { seriesForCell, seriesForCellNow } from "../../src/functions/series-for-cell";

/** The engine calls seriesForCell makes, recorded in order (ready would be recorded too). */
function engineWith(data: Partial<SeriesData>): { engine: Engine; calls: string[] } {
  const calls: string[] = [];
  const engine = {
    ready: async () => {
      calls.push("ready");
    },
    resolve: async (code: string, currency: unknown, unit: unknown) => {
      calls.push(`resolve ${code} ${String(currency)} ${String(unit)}`);
      return { key: `live|energy_price|${code}|-|-` };
    },
    getSeries: async (series: { key: string }, need: unknown) => {
      calls.push(`getSeries ${series.key} ${JSON.stringify(need)}`);
      return { key: series.key, ...data };
    },
  } as unknown as Engine;
  return { engine, calls };
}

// Engine.resolve waits for the engine's stored state itself: seriesForCell does not wait for
// it first (one wait fewer per cell of a cold workbook).
test("resolves the request, tracks the key with its months, then fetches them", async () => {
  const { engine, calls } = engineWith({});
  const track = jest.fn();
  const stale = jest.fn();
  const data = await seriesForCell(engine, { code: "1-2-3", currency: "EUR", unit: null }, LATEST_ONLY, {
    track,
    stale,
  });
  expect(calls).toEqual([
    "resolve 1-2-3 EUR null",
    `getSeries live|energy_price|1-2-3|-|- ${JSON.stringify(LATEST_ONLY)}`,
  ]);
  expect(track).toHaveBeenCalledWith("live|energy_price|1-2-3|-|-", LATEST_ONLY);
  expect(stale).not.toHaveBeenCalled();
  expect(data.key).toBe("live|energy_price|1-2-3|-|-");
});

test("cached data a failed fetch could not update is returned and said stale", async () => {
  const cause = new PcdError("network", "The service could not be reached.");
  const { engine } = engineWith({ staleBecause: cause });
  const stale = jest.fn();
  const data = await seriesForCell(engine, { code: "1-2-3", currency: null, unit: null }, LATEST_ONLY, {
    track: jest.fn(),
    stale,
  });
  expect(stale).toHaveBeenCalledWith(cause);
  expect(data.staleBecause).toBe(cause);
});

describe("seriesForCellNow (the fast path)", () => {
  test.each<[string, Partial<SeriesData> | undefined, boolean]>([
    [
      "served from the cache: the key is tracked with the months read",
      { key: "live|energy_price|1-2-3|-|-" },
      true,
    ],
    ["not servable at once: nothing tracked, the cell takes the slow path", undefined, false],
  ])("%s", (_case, served, tracked) => {
    const asked: unknown[] = [];
    const engine = {
      serveNow: (...args: unknown[]) => {
        asked.push(args);
        return served;
      },
    } as unknown as Engine;
    const track = jest.fn();
    const data = seriesForCellNow(engine, { code: "1-2-3", currency: "EUR", unit: 2 }, LATEST_ONLY, track);
    expect(asked).toEqual([["1-2-3", "EUR", 2, LATEST_ONLY]]);
    expect(data).toBe(served);
    if (tracked) expect(track).toHaveBeenCalledWith("live|energy_price|1-2-3|-|-", LATEST_ONLY);
    else expect(track).not.toHaveBeenCalled();
  });

  test("an engine without a fast path serves nothing at once", () => {
    const track = jest.fn();
    expect(
      seriesForCellNow({} as Engine, { code: "1-2-3", currency: null, unit: null }, LATEST_ONLY, track),
    ).toBeUndefined();
    expect(track).not.toHaveBeenCalled();
  });
});
