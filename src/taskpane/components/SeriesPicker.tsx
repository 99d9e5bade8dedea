// Find series and insert formulas: product tabs, search as you type (the engine ranks
// the hits; an empty search lists the catalog), filters, the virtualised list, the
// details of the series in focus and the insert actions.
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
import { useDebounced } from "../hooks/use-debounced";
import { useLoad } from "../hooks/use-load";
import { useMetaVersion } from "../hooks/use-meta-version";
import { usePaneServices } from "../pane-services";
import {
  browseOrder,
  filterChoices,
  NO_FILTERS,
  PRODUCT_LABELS,
  searchOptions,
  type SeriesFilters,
} from "../series-filters";
import { InsertBar } from "./InsertBar";
import { SeriesDetails } from "./SeriesDetails";
import { SeriesList } from "./SeriesList";

const SEARCH_DELAY_MS = 150;

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
  const metaVersion = useMetaVersion();
  const [product, setProduct] = useState<ProductId>("energy_price");
  const [text, setText] = useState("");
  const [filters, setFilters] = useState<SeriesFilters>(NO_FILTERS);
  const [checked, setChecked] = useState<ReadonlyMap<string, SeriesInfo>>(new Map());
  const [active, setActive] = useState<SeriesInfo | null>(null);
  const query = useDebounced(text.trim(), SEARCH_DELAY_MS);

  const catalog = useLoad(() => engine.catalog(product), [engine, product, metaVersion]);
  const hits = useLoad(
    () => (query === "" ? Promise.resolve(null) : engine.search(query, searchOptions(product, filters))),
    [engine, query, product, filters, metaVersion],
  );

  const items = useMemo<SeriesInfo[]>(() => {
    if (query !== "") return hits.value?.map((hit) => hit.info) ?? [];
    return browseOrder(catalog.value ?? [], filters);
  }, [query, hits.value, catalog.value, filters]);

  const coverages = useMemo(() => filterChoices(catalog.value ?? [], "coverage"), [catalog.value]);
  const commodities = useMemo(() => filterChoices(catalog.value ?? [], "commodity"), [catalog.value]);
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

  const changeProduct = (next: ProductId): void => {
    setProduct(next);
    setFilters(NO_FILTERS);
    setActive(null);
  };

  const failure =
    query !== "" && hits.status === "failed"
      ? hits.message
      : catalog.status === "failed"
        ? catalog.message
        : null;
  const loading = catalog.status === "loading" || (query !== "" && hits.status === "loading");

  return (
    <section className={styles.root} aria-label="Series picker">
      <TabList
        size="small"
        selectedValue={product}
        onTabSelect={(_event, data) => changeProduct(data.value as ProductId)}
        aria-label="Products"
      >
        {PRODUCTS.map((id) => (
          <Tab key={id} value={id}>
            {PRODUCT_LABELS[id]}
          </Tab>
        ))}
      </TabList>
      <SearchBox
        placeholder="Search code, commodity, location…"
        aria-label="Search series"
        value={text}
        onChange={(_event, data) => setText(data.value)}
      />
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
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{failure}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.row}>
        <Caption1 aria-live="polite" data-testid="series-count">
          {loading ? "Loading…" : `${items.length} series${query !== "" ? ` for “${query}”` : ""}`}
        </Caption1>
        {loading && <Spinner size="extra-tiny" aria-label="Loading series" />}
        {checked.size > 0 && (
          <Button size="small" appearance="subtle" onClick={() => setChecked(new Map())}>
            Clear {checked.size} checked
          </Button>
        )}
      </div>
      <SeriesList
        items={items}
        listKey={`${product}|${query}|${filters.coverage ?? ""}|${filters.commodity ?? ""}|${filters.hasForecast}`}
        checked={new Set(checked.keys())}
        activeCode={active?.code ?? null}
        onToggle={toggle}
        onActivate={setActive}
      />
      <InsertBar series={targets} />
      {active && <SeriesDetails info={active} />}
    </section>
  );
}
