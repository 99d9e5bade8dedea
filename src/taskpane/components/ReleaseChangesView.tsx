// After refresh-all: what the release changed in this workbook's series, new months and
// revised history (old value, new value, change %), with "Write report" to put every row
// on a sheet "PCD changes <YYYY-MM>" (src/workbook/release-report.ts).
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
import { reportRows, reportSheetName, type ReportRow } from "../../workbook/release-report";
import { describeError } from "../messages";
import { usePaneServices } from "../pane-services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL, fontSize: tokens.fontSizeBase200 },
});

/** Rows listed in the pane; the report has them all. */
const SHOWN_ROWS = 12;

const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });
const PERCENT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, signDisplay: "always" });

export function changeText(row: ReportRow): string {
  const series = [row.code, row.currency, row.unit].filter(Boolean).join(" ");
  if (row.kind === "new") return `${series} ${row.month}: new month, ${NUMBER.format(row.after)}`;
  const percent = row.changePercent === null ? "" : ` (${PERCENT.format(row.changePercent)} %)`;
  return `${series} ${row.month}: revised ${NUMBER.format(row.before ?? 0)} → ${NUMBER.format(row.after)}${percent}`;
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
  const revised = rows.filter((row) => row.kind === "revised").length;
  const added = rows.length - revised;
  if (rows.length === 0) {
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
        <strong>What changed:</strong> {added} new month{added === 1 ? "" : "s"}, {revised} revised value
        {revised === 1 ? "" : "s"} in {props.changes.length} series.
      </Body1>
      <ul className={styles.list} aria-label="Changed months, biggest change first">
        {rows.slice(0, SHOWN_ROWS).map((row) => (
          <li key={`${row.code}|${row.currency ?? ""}|${row.unit ?? ""}|${row.month}`}>{changeText(row)}</li>
        ))}
      </ul>
      {rows.length > SHOWN_ROWS && (
        <Caption1>and {rows.length - SHOWN_ROWS} more: the report lists every row.</Caption1>
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
