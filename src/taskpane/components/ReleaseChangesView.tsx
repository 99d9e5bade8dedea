// After refresh-all: what the release changed in this workbook's series, new months and
// revised history (old value, new value, change %), one line per series and month with the
// value in each currency and unit beside each other (src/workbook/changes-by-series.ts),
// with "Write report" to put every row on a sheet "PCD changes <YYYY-MM>"
// (src/workbook/release-report.ts).
import { useState } from "react";
import {
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarBody,
  tokens,
} from "@fluentui/react-components";
import type { SeriesReleaseChanges } from "../../core/release-changes";
import { changesBySeries, type KeyValue, type MonthChangeLine } from "../../workbook/changes-by-series";
import { reportRows, reportSheetName } from "../../workbook/release-report";
import { describeError } from "../messages";
import { usePaneServices } from "../pane-services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL, fontSize: tokens.fontSizeBase200 },
});

/** Lines listed in the pane; the report has them all. */
const SHOWN_ROWS = 12;

// Made on first use, not when the pane's code loads: a page's first Intl formatter costs
// about 30 ms (its locale data is loaded).
let numbers: { value: Intl.NumberFormat; percent: Intl.NumberFormat } | undefined;
const formats = () =>
  (numbers ??= {
    value: new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 }),
    percent: new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, signDisplay: "always" }),
  });

function valueText(value: KeyValue, kind: MonthChangeLine["kind"]): string {
  const basis = value.basis === "" ? "" : ` ${value.basis}`;
  const { value: number, percent: signed } = formats();
  if (kind === "new" || value.before === null) return `${number.format(value.after)}${basis}`;
  const percent = value.changePercent === null ? "" : ` (${signed.format(value.changePercent)} %)`;
  return `${number.format(value.before)} → ${number.format(value.after)}${basis}${percent}`;
}

/** "64643-1-12 2026-09: revised 12.3 → 12.5 EUR/MWh (+1.63 %); 3.6 → 3.66 EUR/MMBtu (+1.67 %)" */
export function changeText(line: MonthChangeLine): string {
  const values = line.values.map((value) => valueText(value, line.kind)).join("; ");
  return `${line.code} ${line.month}: ${line.kind === "new" ? "new month" : "revised"} ${values}`;
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/** "3 new months, 238 revised months in 2 series": months and series counted by code. */
export function changesHeadline(changes: readonly SeriesReleaseChanges[]): string {
  const grouped = changesBySeries(changes);
  return `${plural(grouped.newMonths, "new month", "new months")}, ${plural(grouped.revisedMonths, "revised month", "revised months")} in ${grouped.series} series`;
}

export function ReleaseChangesView(props: {
  changes: readonly SeriesReleaseChanges[];
  finishedAt: number;
}): React.JSX.Element {
  const styles = useStyles();
  const { actions } = usePaneServices();
  const [written, setWritten] = useState<{ ok: boolean; text: string } | null>(null);
  const [writing, setWriting] = useState(false);
  const rows = reportRows(props.changes);
  const { lines } = changesBySeries(props.changes);
  if (lines.length === 0) {
    return (
      <Caption1 data-testid="release-changes">
        No new months or revised values in this workbook&apos;s series.
      </Caption1>
    );
  }
  const write = async (): Promise<void> => {
    setWriting(true);
    try {
      await actions.writeReport(props.changes, props.finishedAt);
      setWritten({
        ok: true,
        text: `Wrote ${rows.length} rows to the sheet "${reportSheetName(props.finishedAt)}".`,
      });
    } catch (error) {
      setWritten({ ok: false, text: `The report could not be written: ${describeError(error)}` });
    } finally {
      setWriting(false);
    }
  };
  return (
    <section className={styles.root} aria-label="What the release changed" data-testid="release-changes">
      <Body1>
        <strong>What changed:</strong> {changesHeadline(props.changes)}.
      </Body1>
      <ul className={styles.list} aria-label="Changed months, biggest change first">
        {lines.slice(0, SHOWN_ROWS).map((line) => (
          <li key={`${line.code}|${line.month}`}>{changeText(line)}</li>
        ))}
      </ul>
      {lines.length > SHOWN_ROWS && (
        <Caption1>
          and {lines.length - SHOWN_ROWS} more month{lines.length - SHOWN_ROWS === 1 ? "" : "s"}: the report
          lists every one.
        </Caption1>
      )}
      <Button disabled={writing} onClick={() => void write()}>
        Write report
      </Button>
      {written && (
        <MessageBar
          layout="multiline"
          intent={written.ok ? "success" : "error"}
          role={written.ok ? "status" : "alert"}
        >
          <MessageBarBody>{written.text}</MessageBarBody>
        </MessageBar>
      )}
    </section>
  );
}
