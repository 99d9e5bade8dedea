// The cost preview shown before a refresh equals what that refresh then charges, per
// product and dataset, against the emulator: after a release on the calendar, and after one
// off it (which only the catalog tells), whether the user opens the preview at once
// (it checks the catalogs then) or looks later.
import "fake-indexeddb/auto";
import type { Engine, RefreshPlan } from "../../src/core/engine-api";
import type { ProductId } from "../../src/core/model";
import { startPair, type Pair } from "./support/emulator-pair";
import { PREVIEW_CATALOG_MAX_AGE_MS } from "../../src/core/refresh";

/** Friday 20 Nov 2026, 12:00 US Central: no maintenance, no release day. */
const START = "2026-11-20T18:00:00Z";
const MINUTE = 60_000;

let pair: Pair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

/** Three Germany series of each product that has one: "Germany" is a dataset of both. */
async function workbook(engine: Engine): Promise<void> {
  for (const product of ["energy_price", "industry_economics"] as const) {
    const germany = (await engine.catalog(product)).filter((info) => info.coverage === "Germany").slice(0, 3);
    expect(germany).toHaveLength(3);
    const requests = await Promise.all(germany.map((info) => engine.resolve(info.code, null, null)));
    await Promise.all(requests.map((request) => engine.getSeries(request)));
  }
}

function costByDataset(plan: RefreshPlan): Record<string, number> {
  return Object.fromEntries(plan.cost.map((row) => [`${row.product}|${row.dataset}`, row.requests]));
}

function chargedByDataset(byProduct: Record<ProductId, Record<string, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(byProduct).flatMap(([product, datasets]) =>
      Object.entries(datasets)
        .filter(([, count]) => count > 0)
        .map(([dataset, count]) => [`${product}|${dataset}`, count]),
    ),
  );
}

test.each<[string, (pair: Pair) => Promise<void>, { recheck?: boolean }]>([
  [
    "a release off the calendar, the preview opened a minute later (it checks the catalogs)",
    async (p) => {
      await p.admin("release", {});
      await p.setClock(new Date(p.now() + MINUTE).toISOString());
    },
    { recheck: true },
  ],
  [
    "a release off the calendar, the preview re-planned once its catalogs are due again",
    async (p) => {
      await p.admin("release", {});
      await p.setClock(new Date(p.now() + PREVIEW_CATALOG_MAX_AGE_MS + MINUTE).toISOString());
    },
    {},
  ],
  [
    "the calendar's release, the day after",
    async (p) => {
      await p.setClock("2026-12-04T18:00:00Z");
    },
    {},
  ],
])("%s: the preview's cost is what the refresh charges", async (_case, release, options) => {
  pair = await startPair(START);
  const { engine } = pair;
  await workbook(engine);
  await release(pair);
  const plan = await engine.planRefresh(options);
  expect(plan.totalRequests).toBeGreaterThan(0);
  await pair.admin("reset");
  const summary = await engine.refreshAll();
  const stats = (await pair.stats()) as unknown as {
    dataRequestsByProduct: Record<ProductId, Record<string, number>>;
  };
  expect(summary.failures).toEqual([]);
  expect(summary).toMatchObject({ failed: 0, requestsUsed: plan.totalRequests });
  expect(chargedByDataset(stats.dataRequestsByProduct)).toEqual(costByDataset(plan));
});
