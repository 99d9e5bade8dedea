// Budget holds in the database, so that instances sharing it check one member's requests one at
// a time and count each other's requests in flight. The check runs in a transaction under a
// transaction-level advisory lock per member: a second instance checking the same member waits
// until the first has committed its hold, then counts it.
import { randomUUID } from "node:crypto";
import type { SqlDatabase } from "../database/sql-database";
import type { BudgetHolds } from "./gateway-store";

// The first half of the two-number advisory lock key (a key space apart from the keys' single
// 64-bit locks): budget checks, the second half being the member's hash.
const BUDGET_LOCK_CLASS = 1_347_634_242;

export function sqlBudgetHolds(database: SqlDatabase): BudgetHolds {
  return {
    hold: ({ member, product, budget, needed, at, period, expiresAt }) =>
      database.transaction(async (session) => {
        await session.query(`select pg_advisory_xact_lock(${BUDGET_LOCK_CLASS}, hashtext($1))`, [member]);
        // The member's holds left by an instance that stopped before releasing them end here
        // (only this member's: their lock covers no one else's rows).
        await session.query("delete from budget_holds where member = $1 and expires_at <= $2", [
          member,
          at.toISOString(),
        ]);
        const datasets = [...needed.keys()];
        const { start, end } = period;
        const rows = await session.query<{ dataset: string; used: number }>(
          `select given.dataset,
                  (select count(*) from purchase_codes as bought
                   where bought.member = $1 and bought.product = $2 and bought.dataset = given.dataset
                     and bought.at >= $3 and bought.at < $4)::integer
                + (select coalesce(sum(held.requests), 0) from budget_holds as held
                   where held.member = $1 and held.product = $2 and held.dataset = given.dataset)::integer
                  as used
           from unnest($5::text[]) as given (dataset)`,
          [member, product, start.toISOString(), end.toISOString(), datasets],
        );
        const used = new Map(rows.map((row) => [row.dataset, row.used]));
        for (const [dataset, count] of needed) {
          const already = used.get(dataset) ?? 0;
          if (already + count > budget) {
            return { over: { dataset, left: Math.max(0, budget - already), needed: count } };
          }
        }
        const id = randomUUID();
        await session.query(
          `insert into budget_holds (id, member, product, dataset, requests, expires_at)
           select $1, $2, $3, dataset, requests, $4::timestamptz
           from unnest($5::text[], $6::integer[]) as given (dataset, requests)`,
          [
            id,
            member,
            product,
            expiresAt.toISOString(),
            datasets,
            datasets.map((dataset) => needed.get(dataset)),
          ],
        );
        return { held: id };
      }),
    release: async (id) => {
      await database.query("delete from budget_holds where id = $1", [id]);
    },
    settle: async (id, dataset, requests) => {
      await database.query(
        "update budget_holds set requests = greatest(0, requests - $3) where id = $1 and dataset = $2",
        [id, dataset, requests],
      );
    },
    heldBy: async (member, product, at) => {
      const rows = await database.query<{ dataset: string; requests: number }>(
        `select dataset, sum(requests)::integer as requests from budget_holds
         where member = $1 and product = $2 and expires_at > $3
         group by dataset`,
        [member, product, at.toISOString()],
      );
      return new Map(rows.map((row) => [row.dataset, row.requests]));
    },
  };
}
