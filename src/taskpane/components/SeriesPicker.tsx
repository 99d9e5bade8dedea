// Find series and insert formulas: search as you type over every product (the engine
// ranks the hits, the list groups them by product with a count per product; an empty
// search lists the catalog), the product tabs as filters, the virtualised list, the
// details of the series in focus and the insert actions. Every empty list says what to try.
import { useCallback, useMemo, useState } from "react";
import {
  Button,
  Caption1,
  Checkbox,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  SearchBox,
  Select,
  Spinner,
  Tab,
  TabList,
  tokens,
} from "@fluentui/react-components";
import { PRODUCTS, type ProductId, type SeriesInfo } from "../../core/model";
import { cellEditFromFormula } from "../../workbook/cell-edit";
import { emptyListText, listSummaryText } from "../messages";
import { useDebounced } from "../hooks/use-debounced";
import { useLoad } from "../hooks/use-load";
import { useCatalogVersion } from "../hooks/use-catalog-version";
import { useSelectedCell } from "../hooks/use-selected-cell";
import { usePaneServices } from "../pane-services";
import { listLoading, type SearchResult } from "../search-result";
import {
  browseOrder,
  countByProduct,
  filterChoices,
  groupByProduct,
  NO_FILTERS,
  PRODUCT_LABELS,
  searchOptions,
  type SeriesFilters,
} from "../series-filters";
import { EditCellPanel } from "./EditCellPanel";
import { InsertBar } from "./InsertBar";
import { SeriesDetails } from "./SeriesDetails";
import { SeriesList } from "./SeriesList";

const SEARCH_DELAY_MS = 150;

/** The product tab "All": no product filter. */
const ALL = "all";
type ProductTab = ProductId | typeof ALL;
const PRODUCT_TABS: readonly ProductTab[] = [ALL, ...PRODUCTS];

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  filters: {
    display: "grid",
    gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)",
    gap: tokens.spacingHorizontalS,
    // Fluent's selects have an intrinsic width: let them shrink to the 320 px pane.
    "& > *": { minWidth: 0 },
    "& select": { minWidth: 0, width: "100%" },
  },
  products: { flexWrap: "wrap" },
  row: {
    display: "flex",
    alignItems: "center",
    justifyContent: "space-between",
    gap: tokens.spacingHorizontalS,
    flexWrap: "wrap",
  },
});

export function SeriesPicker(): React.JSX.Element {
  const styles = useStyles();
  const { engine } = usePaneServices();
  // The catalog and the search reload when the catalog changes, not after every data call.
  const catalogVersion = useCatalogVersion();
  const [product, setProduct] = useState<ProductTab>(ALL);
  const [text, setText] = useState("");
  const [filters, setFilters] = useState<SeriesFilters>(NO_FILTERS);
  const [checked, setChecked] = useState<ReadonlyMap<string, SeriesInfo>>(new Map());
  const [active, setActive] = useState<SeriesInfo | null>(null);
  const query = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const selection = useSelectedCell();
  // A selected PCD cell is edited, not inserted over: the insert footer makes way for the form.
  const editing = useMemo(() => {
    const { cell } = selection;
    return cell !== null && cellEditFromFormula(cell.address, cell.formula) !== null ? cell.address : null;
  }, [selection]);

  // One catalog of every product: the tabs filter it, and the counts beside them need all.
  const catalog = useLoad(() => engine.catalog(), [engine, catalogVersion]);
  const hits = useLoad<SearchResult | null>(
    () =>
      query === ""
        ? Promise.resolve(null)
        : engine
            .search(query, searchOptions(null, filters))
            .then((found) => ({ query, filters, hits: found })),
    [engine, query, filters, catalogVersion],
  );

  /** Every product's matches: search hits grouped by product, or the filtered catalog. */
  const matches = useMemo<SeriesInfo[]>(() => {
    if (query !== "") return groupByProduct(hits.value?.hits.map((hit) => hit.info) ?? []);
    return browseOrder(catalog.value ?? [], filters);
  }, [query, hits.value, catalog.value, filters]);
  const counts = useMemo(() => countByProduct(matches), [matches]);
  const items = useMemo<SeriesInfo[]>(
    () => (product === ALL ? matches : matches.filter((info) => info.product === product)),
    [matches, product],
  );
  const inProduct = useMemo(
    () => (catalog.value ?? []).filter((info) => product === ALL || info.product === product),
    [catalog.value, product],
  );

  const coverages = useMemo(() => filterChoices(inProduct, "coverage"), [inProduct]);
  const commodities = useMemo(() => filterChoices(inProduct, "commodity"), [inProduct]);
  const targets = useMemo<SeriesInfo[]>(
    () => (checked.size > 0 ? [...checked.values()] : active ? [active] : []),
    [checked, active],
  );

  const toggle = useCallback((info: SeriesInfo) => {
    setChecked((previous) => {
      const next = new Map(previous);
      if (next.has(info.code)) next.delete(info.code);
      else next.set(info.code, info);
      return next;
    });
  }, []);

  // The tabs filter what the search found: the search text stays, and so do filters the
  // new tab still offers.
  const changeProduct = (next: ProductTab): void => {
    setProduct(next);
    setActive(null);
  };
  const filtered = filters.coverage !== null || filters.commodity !== null || filters.hasForecast;

  const failure =
    query !== "" && hits.status === "failed"
      ? hits.message
      : catalog.status === "failed"
        ? catalog.message
        : null;
  const loading = listLoading(catalog, hits, query, filters);
  const empty =
    !loading && failure === null && items.length === 0
      ? emptyListText({
          query,
          product: product === ALL ? null : product,
          counts,
          filtered,
          labels: PRODUCT_LABELS,
        })
      : null;
  const tabLabel = (id: ProductTab): string => {
    const label = id === ALL ? "All" : PRODUCT_LABELS[id];
    if (loading || (query === "" && !filtered)) return label;
    const count = id === ALL ? matches.length : counts[id];
    return `${label} (${count})`;
  };

  return (
    <section className={styles.root} aria-label="Series picker">
      <EditCellPanel cell={selection.cell} moves={selection.moves} />
      <SearchBox
        placeholder="Search code, commodity, location…"
        aria-label="Search series"
        value={text}
        onChange={(_event, data) => setText(data.value)}
      />
      <TabList
        size="small"
        className={styles.products}
        selectedValue={product}
        onTabSelect={(_event, data) => changeProduct(data.value as ProductTab)}
        aria-label="Products"
      >
        {PRODUCT_TABS.map((id) => (
          <Tab key={id} value={id} data-product={id}>
            {tabLabel(id)}
          </Tab>
        ))}
      </TabList>
      <div className={styles.filters}>
        <Field label="Coverage">
          <Select
            name="coverage"
            value={filters.coverage ?? ""}
            onChange={(_event, data) => setFilters({ ...filters, coverage: data.value || null })}
          >
            <option value="">All</option>
            {coverages.map((coverage) => (
              <option key={coverage} value={coverage}>
                {coverage}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Commodity">
          <Select
            name="commodity"
            value={filters.commodity ?? ""}
            onChange={(_event, data) => setFilters({ ...filters, commodity: data.value || null })}
          >
            <option value="">All</option>
            {commodities.map((commodity) => (
              <option key={commodity} value={commodity}>
                {commodity}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Checkbox
        label="Only series with forecasts"
        checked={filters.hasForecast}
        onChange={(_event, data) => setFilters({ ...filters, hasForecast: data.checked === true })}
      />
      {failure !== null && (
        <MessageBar layout="multiline" intent="error" role="alert">
          <MessageBarBody>{failure}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.row}>
        <Caption1 aria-live="polite" data-testid="series-count">
          {loading
            ? "Loading…"
            : listSummaryText(
                items.length,
                query,
                product === ALL ? counts : countByProduct(items),
                PRODUCT_LABELS,
              )}
        </Caption1>
        {loading && <Spinner size="extra-tiny" aria-label="Loading series" />}
        {checked.size > 0 && (
          <Button size="small" appearance="subtle" onClick={() => setChecked(new Map())}>
            Clear {checked.size} checked
          </Button>
        )}
      </div>
      {empty !== null ? (
        <MessageBar layout="multiline" intent="info" data-testid="series-empty">
          <MessageBarBody>{empty}</MessageBarBody>
        </MessageBar>
      ) : (
        <SeriesList
          items={items}
          listKey={`${product}|${query}|${filters.coverage ?? ""}|${filters.commodity ?? ""}|${filters.hasForecast}`}
          checked={new Set(checked.keys())}
          activeCode={active?.code ?? null}
          onToggle={toggle}
          onActivate={setActive}
        />
      )}
      <InsertBar series={targets} editing={editing} selectionMoves={selection.moves}>
        {active && <SeriesDetails info={active} />}
      </InsertBar>
    </section>
  );
}
