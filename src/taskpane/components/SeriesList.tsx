// The picker's result list, virtualised so a few thousand series scroll smoothly. It is
// one listbox: arrow keys move, Space checks a series for a multi-row insert, Enter
// shows its details; clicking a row shows details, clicking its box checks it.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { makeStyles, mergeClasses, tokens } from "@fluentui/react-components";
import type { SeriesInfo } from "../../core/model";

const ROW_HEIGHT = 52;

const useStyles = makeStyles({
  scroller: {
    height: "260px",
    overflowY: "auto",
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    outlineStyle: "none",
    ":focus-visible": { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: "1px" },
  },
  inner: { position: "relative", width: "100%" },
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
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
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
    virtualizer.scrollToIndex(next, { align: "auto" });
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
        {virtualizer.getVirtualItems().map((row) => {
          const info = items[row.index];
          if (!info) return null;
          const isChecked = checked.has(info.code);
          return (
            <div
              key={info.code}
              id={optionId(row.index)}
              role="option"
              aria-selected={isChecked}
              data-code={info.code}
              className={mergeClasses(
                styles.row,
                row.index === cursor && styles.cursor,
                info.code === activeCode && styles.active,
              )}
              style={{ transform: `translateY(${row.start}px)` }}
              onClick={() => {
                setCursor(row.index);
                props.onActivate(info);
              }}
            >
              <input
                type="checkbox"
                tabIndex={-1}
                aria-hidden="true"
                checked={isChecked}
                onClick={(event) => event.stopPropagation()}
                onChange={() => {
                  setCursor(row.index);
                  props.onToggle(info);
                }}
              />
              <div className={styles.texts}>
                <span className={styles.title} title={info.assessment}>
                  {info.assessment}
                </span>
                <span className={styles.meta}>
                  {info.code} · {info.coverage}
                  {info.hasForecast === true ? " · forecast" : ""}
                </span>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
