// The picker's result list, virtualised so a few thousand series scroll smoothly. It is
// one listbox: arrow keys move, Space checks a series for a multi-row insert, Enter
// shows its details; clicking a row shows details, clicking its box checks it. A list
// holding several products shows a heading row (product and count) before each group;
// the headings are not options, so the keyboard moves over series only. The list grows
// with the pane's height (at least four rows).
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Checkbox, makeStyles, mergeClasses, tokens } from "@fluentui/react-components";
import type { ProductId, SeriesInfo } from "../../core/model";
import { PRODUCT_LABELS } from "../series-filters";

const ROW_HEIGHT = 52;
const HEADING_HEIGHT = 28;

/** What the virtualiser lays out: a product heading or a series (by its index in items). */
type ListRow = { kind: "heading"; product: ProductId; count: number } | { kind: "series"; index: number };

export function listRows(items: readonly SeriesInfo[]): ListRow[] {
  const products = new Set(items.map((info) => info.product));
  if (products.size < 2) return items.map((_info, index) => ({ kind: "series", index }));
  const rows: ListRow[] = [];
  items.forEach((info, index) => {
    if (index === 0 || items[index - 1]?.product !== info.product) {
      const count = items.filter((other) => other.product === info.product).length;
      rows.push({ kind: "heading", product: info.product, count });
    }
    rows.push({ kind: "series", index });
  });
  return rows;
}

const useStyles = makeStyles({
  scroller: {
    // Grows with the pane: what the search box, filters and the insert footer leave.
    height: `max(${ROW_HEIGHT * 4}px, calc(100vh - 420px))`,
    overflowY: "auto",
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    outlineStyle: "none",
    ":focus-visible": { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: "1px" },
  },
  inner: { position: "relative", width: "100%" },
  heading: {
    position: "absolute",
    left: 0,
    right: 0,
    height: `${HEADING_HEIGHT}px`,
    display: "flex",
    alignItems: "center",
    padding: `0 ${tokens.spacingHorizontalS}`,
    boxSizing: "border-box",
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground2,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  row: {
    position: "absolute",
    left: 0,
    right: 0,
    height: `${ROW_HEIGHT}px`,
    display: "flex",
    alignItems: "center",
    gap: tokens.spacingHorizontalS,
    padding: `0 ${tokens.spacingHorizontalS}`,
    boxSizing: "border-box",
    cursor: "pointer",
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    ":hover": { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  cursor: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    outline: `1px solid ${tokens.colorNeutralStroke1}`,
  },
  active: { borderLeft: `3px solid ${tokens.colorBrandStroke1}` },
  texts: { display: "flex", flexDirection: "column", minWidth: 0 },
  check: { display: "flex", flex: "none" },
  title: {
    whiteSpace: "nowrap",
    overflow: "hidden",
    textOverflow: "ellipsis",
    fontSize: tokens.fontSizeBase300,
  },
  meta: {
    whiteSpace: "nowrap",
    overflow: "hidden",
    textOverflow: "ellipsis",
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground3,
  },
});

export interface SeriesListProps {
  items: readonly SeriesInfo[];
  /** Changes when a new list is asked for (search, product, filters): back to the top. */
  listKey: string;
  checked: ReadonlySet<string>;
  activeCode: string | null;
  onToggle(info: SeriesInfo): void;
  onActivate(info: SeriesInfo): void;
}

export function SeriesList(props: SeriesListProps): React.JSX.Element {
  const styles = useStyles();
  const { items, checked, activeCode } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const listId = useId();
  const [cursor, setCursor] = useState(0);
  const rows = useMemo(() => listRows(items), [items]);
  const rowOfItem = useMemo(() => {
    const map = new Map<number, number>();
    rows.forEach((row, rowIndex) => row.kind === "series" && map.set(row.index, rowIndex));
    return map;
  }, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (rowIndex) => (rows[rowIndex]?.kind === "heading" ? HEADING_HEIGHT : ROW_HEIGHT),
    overscan: 8,
  });

  // A new result list starts at its top; a reload of the same list (catalog or limits
  // changed) keeps the reader's place.
  useEffect(() => {
    setCursor(0);
    virtualizer.scrollToOffset(0);
  }, [props.listKey, virtualizer]);

  const moveTo = (index: number): void => {
    if (items.length === 0) return;
    const next = Math.max(0, Math.min(items.length - 1, index));
    setCursor(next);
    virtualizer.scrollToIndex(rowOfItem.get(next) ?? next, { align: "auto" });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 5) / ROW_HEIGHT) - 1);
    const current = items[cursor];
    const handled = new Map<string, () => void>([
      ["ArrowDown", () => moveTo(cursor + 1)],
      ["ArrowUp", () => moveTo(cursor - 1)],
      ["Home", () => moveTo(0)],
      ["End", () => moveTo(items.length - 1)],
      ["PageDown", () => moveTo(cursor + page)],
      ["PageUp", () => moveTo(cursor - page)],
      [" ", () => current && props.onToggle(current)],
      ["Enter", () => current && props.onActivate(current)],
    ]).get(event.key);
    if (handled) {
      event.preventDefault();
      handled();
    }
  };

  const optionId = (index: number): string => `${listId}-option-${index}`;

  return (
    <div
      ref={scroller}
      className={styles.scroller}
      role="listbox"
      aria-label={`Series (${items.length}); Space checks a series for inserting, Enter shows its details`}
      aria-multiselectable="true"
      aria-activedescendant={items.length > 0 ? optionId(cursor) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="series-list"
    >
      <div className={styles.inner} style={{ height: `${virtualizer.getTotalSize()}px` }}>
        {virtualizer.getVirtualItems().map((virtual) => {
          const row = rows[virtual.index];
          if (!row) return null;
          if (row.kind === "heading") {
            return (
              <div
                key={`heading-${row.product}`}
                role="presentation"
                className={styles.heading}
                style={{ transform: `translateY(${virtual.start}px)` }}
                data-testid="product-heading"
                data-product={row.product}
              >
                {PRODUCT_LABELS[row.product]} · {row.count}
              </div>
            );
          }
          const info = items[row.index];
          if (!info) return null;
          const isChecked = checked.has(info.code);
          const meta = `${info.code} · ${info.coverage}${info.hasForecast === true ? " · forecast" : ""}`;
          return (
            <div
              key={info.code}
              id={optionId(row.index)}
              role="option"
              aria-selected={isChecked}
              title={`${info.assessment}\n${meta}`}
              data-code={info.code}
              className={mergeClasses(
                styles.row,
                row.index === cursor && styles.cursor,
                info.code === activeCode && styles.active,
              )}
              style={{ transform: `translateY(${virtual.start}px)` }}
              onClick={() => {
                setCursor(row.index);
                props.onActivate(info);
              }}
            >
              {/* The row is the option (Space checks it): the box only pictures its state, so it is
                  inert (no nested control in the option); a click on it checks the row. */}
              <span
                className={styles.check}
                data-testid="row-check"
                onClick={(event) => {
                  event.stopPropagation();
                  setCursor(row.index);
                  props.onToggle(info);
                }}
              >
                <span inert>
                  <Checkbox checked={isChecked} />
                </span>
              </span>
              <div className={styles.texts}>
                <span className={styles.title}>{info.assessment}</span>
                <span className={styles.meta}>{meta}</span>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
