// PCD.SEARCH: catalog matches, best first. Searches the cached catalog: no data request.
import type { Engine } from "../core/engine-api";
import { PcdError } from "../core/errors";
import { parseMaxRows } from "./arguments/options";
import { parseProduct } from "./arguments/product";
import { shortened } from "./arguments/argument-error";
import { parseSearchText } from "./arguments/search-text";
import type { CellTable } from "./cell-value";
import { buildSearchTable } from "./shape/search-table";
import type { CellJob } from "./streaming-cell";

export interface SearchArguments {
  text: unknown;
  product: unknown;
  max_rows: unknown;
}

export function searchJob(engine: Engine, args: SearchArguments): CellJob<CellTable> {
  return {
    watch: "catalog",
    compute: async () => {
      const text = parseSearchText(args.text);
      const product = parseProduct(args.product);
      const maxRows = parseMaxRows(args.max_rows);
      await engine.ready();
      const hits = await engine.search(
        text,
        product === null ? { limit: maxRows } : { product, limit: maxRows },
      );
      if (hits.length === 0) throw new PcdError("not_found", `No series matches "${shortened(text)}".`);
      return buildSearchTable(hits, maxRows);
    },
  };
}
