// Each product's Series Info as the gateway last read it, in the `catalog_copies` table: a
// gateway that starts while the service is down (a maintenance day lasts sixteen hours) serves
// what it keeps against the catalog it last had, as one that kept running does with its copy in
// memory.
import type { SqlDatabase } from "../database/sql-database";
import type { CatalogCopies } from "./gateway-store";

export function sqlCatalogCopies(database: SqlDatabase): CatalogCopies {
  return {
    async get(product) {
      const [row] = await database.query<{ body: string; read_at: Date | string }>(
        "select body, read_at from catalog_copies where product = $1",
        [product],
      );
      return row === undefined ? null : { body: row.body, readAt: new Date(row.read_at) };
    },
    async readAt(product) {
      const [row] = await database.query<{ read_at: Date | string }>(
        "select read_at from catalog_copies where product = $1",
        [product],
      );
      return row === undefined ? null : new Date(row.read_at);
    },
    async put(product, copy) {
      // An instance with an older copy (its read came back later) does not replace a newer one.
      const written = await database.query<{ product: string }>(
        `insert into catalog_copies as saved (product, body, read_at) values ($1, $2, $3)
         on conflict (product) do update set body = excluded.body, read_at = excluded.read_at
         where saved.read_at <= excluded.read_at
         returning product`,
        [product, copy.body, copy.readAt.toISOString()],
      );
      return written.length > 0;
    },
  };
}
