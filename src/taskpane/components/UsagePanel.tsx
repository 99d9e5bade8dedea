// Usage tab: the refresh section with its cost first (its button is in reach, not below
// dozens of bars), then the allowance bars (reloaded whenever the engine's limits change,
// e.g. after data calls): this workbook's datasets first, then the others, all narrowed by
// a filter; and a warning per product whose limits could not be read.
import {
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarBody,
  SearchBox,
  Spinner,
  Subtitle2,
  tokens,
} from "@fluentui/react-components";
import { useMemo, useRef, useState } from "react";
import type { LimitsRow } from "../../core/engine-api";
import { useLoad } from "../hooks/use-load";
import { useMetaVersion } from "../hooks/use-meta-version";
import { usePaneServices } from "../pane-services";
import { PRODUCT_LABELS } from "../series-filters";
import { utcTime } from "../outage-text";
import { FreezePanel } from "./FreezePanel";
import { RefreshPanel } from "./RefreshPanel";
import { UsageBars } from "./UsageBars";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  heading: { display: "flex", alignItems: "center", justifyContent: "space-between" },
  bars: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
});

const rowKey = (row: { product: string; dataset: string }): string => `${row.product}|${row.dataset}`;

/** Rows whose dataset or product name contains the filter text (any case). */
export function filterLimitsRows(
  rows: readonly LimitsRow[],
  text: string,
  productLabel: (row: LimitsRow) => string,
): LimitsRow[] {
  const wanted = text.trim().toLowerCase();
  if (wanted === "") return [...rows];
  return rows.filter(
    (row) => row.dataset.toLowerCase().includes(wanted) || productLabel(row).toLowerCase().includes(wanted),
  );
}

export function UsagePanel(): React.JSX.Element {
  const styles = useStyles();
  const { engine } = usePaneServices();
  const metaVersion = useMetaVersion();
  const [reloads, setReloads] = useState(0);
  // Reload reads Data Limits again once; the loads that follow change events (each reading
  // is one) reuse recent readings, so a reading never makes the bars read again.
  const rereadAsked = useRef(false);
  const [filter, setFilter] = useState("");
  const limits = useLoad(() => {
    const reread = rereadAsked.current;
    rereadAsked.current = false;
    return engine.limitsReport({ reread });
  }, [engine, metaVersion, reloads]);
  // The datasets this workbook's PCD cells read (free to work out: no data request).
  const plan = useLoad(() => engine.planRefresh(), [engine, metaVersion]);
  const workbook = useMemo(
    () => new Set((plan.value?.items ?? []).map((item) => rowKey(item))),
    [plan.value],
  );
  const shown = filterLimitsRows(limits.value?.rows ?? [], filter, (row) => PRODUCT_LABELS[row.product]);
  const ours = shown.filter((row) => workbook.has(rowKey(row)));
  const others = shown.filter((row) => !workbook.has(rowKey(row)));
  return (
    <div className={styles.root}>
      <RefreshPanel />
      <FreezePanel />
      <section aria-label="Data limits" className={styles.bars}>
        <div className={styles.heading}>
          <Subtitle2 as="h2">Data requests left this month</Subtitle2>
          <Button
            size="small"
            appearance="subtle"
            onClick={() => {
              rereadAsked.current = true;
              setReloads((value) => value + 1);
            }}
          >
            Reload
          </Button>
        </div>
        {limits.value && limits.value.rows.length > 0 && (
          <SearchBox
            size="small"
            placeholder="Filter datasets"
            aria-label="Filter datasets"
            value={filter}
            onChange={(_event, data) => setFilter(data.value)}
          />
        )}
        {limits.value && ours.length > 0 && (
          <section aria-label="Used by this workbook" data-testid="usage-workbook">
            <Caption1 as="h3">Used by this workbook</Caption1>
            <UsageBars rows={ours} />
          </section>
        )}
        {limits.value && (others.length > 0 || (filter.trim() === "" && ours.length === 0)) && (
          <section
            aria-label={ours.length > 0 ? "Other datasets" : "All datasets"}
            data-testid="usage-others"
          >
            {ours.length > 0 && <Caption1 as="h3">Other datasets</Caption1>}
            <UsageBars rows={others} />
          </section>
        )}
        {limits.value && shown.length === 0 && filter.trim() !== "" && (
          <Caption1 data-testid="usage-filter-empty">
            No dataset matches &quot;{filter.trim()}&quot;. Clear the filter to see all{" "}
            {limits.value.rows.length}.
          </Caption1>
        )}
        {/* A product without bars would read as "not subscribed": say it is unknown, and why. */}
        {limits.value?.unavailable.map(({ product, message }) => (
          <MessageBar
            layout="multiline"
            key={product}
            intent="warning"
            data-testid="limits-unavailable"
            data-product={product}
          >
            <MessageBarBody>
              Data limits of {PRODUCT_LABELS[product]} could not be read: {message}
            </MessageBarBody>
          </MessageBar>
        ))}
        {limits.value?.notReread?.map(({ product, message, readAt }) => (
          <MessageBar
            layout="multiline"
            key={product}
            intent="info"
            data-testid="limits-not-reread"
            data-product={product}
          >
            <MessageBarBody>
              Data limits of {PRODUCT_LABELS[product]} were not read again: {message} The numbers shown were
              read at {utcTime(readAt, Date.now())}.
            </MessageBarBody>
          </MessageBar>
        ))}
        {limits.status === "loading" && !limits.value && <Spinner size="tiny" label="Reading your limits…" />}
        {limits.status === "failed" && (
          <MessageBar layout="multiline" intent="error" role="alert">
            <MessageBarBody>Could not read your data limits: {limits.message}</MessageBarBody>
          </MessageBar>
        )}
      </section>
    </div>
  );
}
