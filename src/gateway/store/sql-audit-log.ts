// The audit: every purchase (each code charged, and the member whose request caused it) and
// every answer served, from which budgets and usage reports are counted.
import type { SqlDatabase } from "../database/sql-database";
import type { AuditLog, UsageRow } from "./gateway-store";

export function sqlAuditLog(database: SqlDatabase): AuditLog {
  return {
    async recordPurchase({ at, product, operation, codes }) {
      await database.transaction(async (session) => {
        const [purchase] = await session.query<{ id: string }>(
          "insert into purchases (at, product, operation) values ($1, $2, $3) returning id::text",
          [at.toISOString(), product, operation],
        );
        if (purchase === undefined) throw new Error("The database did not return the purchase it recorded.");
        if (codes.length === 0) return;
        await session.query(
          `insert into purchase_codes (purchase_id, at, product, key, code, dataset, member)
           select $1::bigint, $2::timestamptz, $3, key, code, dataset, member
           from unnest($4::text[], $5::text[], $6::text[], $7::text[]) as given (key, code, dataset, member)`,
          [
            purchase.id,
            at.toISOString(),
            product,
            codes.map((code) => code.key),
            codes.map((code) => code.code),
            codes.map((code) => code.dataset),
            codes.map((code) => code.member),
          ],
        );
      });
    },
    async recordServed(answers) {
      if (answers.length === 0) return;
      await database.query(
        `insert into served (at, member, product, operation, code, dataset, source)
         select at::timestamptz, member, product, operation, code, dataset, source
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
           as given (at, member, product, operation, code, dataset, source)`,
        [
          answers.map((answer) => answer.at.toISOString()),
          answers.map((answer) => answer.member),
          answers.map((answer) => answer.product),
          answers.map((answer) => answer.operation),
          answers.map((answer) => answer.code),
          answers.map((answer) => answer.dataset),
          answers.map((answer) => answer.source),
        ],
      );
    },
    async purchasedBy(member, product, dataset, { start, end }) {
      const [row] = await database.query<{ purchased: number }>(
        `select count(*)::integer as purchased from purchase_codes
         where member = $1 and product = $2 and dataset = $3 and at >= $4 and at < $5`,
        [member, product, dataset, start.toISOString(), end.toISOString()],
      );
      return row?.purchased ?? 0;
    },
    usage(range) {
      return database.query<UsageRow>(
        `select member, product, dataset,
                sum(purchased)::integer as purchased, sum(from_cache)::integer as "fromCache"
         from (
           select member, product, dataset, 1 as purchased, 0 as from_cache
           from purchase_codes where at >= $1 and at < $2
           union all
           select member, product, dataset, 0, 1
           from served where source = 'cache' and at >= $1 and at < $2
         ) as counted
         group by member, product, dataset
         order by member, product, dataset`,
        [range.start.toISOString(), range.end.toISOString()],
      );
    },
  };
}
