// The outcome of a refresh-all: counts a person checks, and each failure with its cause.
import { Body1, Caption1, makeStyles, tokens } from "@fluentui/react-components";
import type { RefreshSummary } from "../../core/engine-api";
import { formatDateTime } from "../messages";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
  counts: {
    display: "grid",
    gridTemplateColumns: "repeat(auto-fill, minmax(90px, 1fr))",
    gap: tokens.spacingHorizontalXS,
    margin: 0,
  },
  count: { margin: 0 },
  failures: { margin: 0, paddingLeft: tokens.spacingHorizontalL, fontSize: tokens.fontSizeBase200 },
});

export function RefreshSummaryView(props: { summary: RefreshSummary }): React.JSX.Element {
  const styles = useStyles();
  const { summary } = props;
  const counts: Array<[string, number]> = [
    ["Updated", summary.updated],
    ["Revised", summary.revised],
    ["Unchanged", summary.unchanged],
    ["Failed", summary.failed],
    ["Requests used", summary.requestsUsed],
  ];
  return (
    <div className={styles.root} data-testid="refresh-summary">
      <Body1>Refresh finished {formatDateTime(summary.finishedAt)}.</Body1>
      <dl className={styles.counts}>
        {counts.map(([label, value]) => (
          <div key={label} data-count={label.toLowerCase().replace(" ", "-")}>
            <dt>
              <Caption1>{label}</Caption1>
            </dt>
            <dd className={styles.count}>
              <Body1>
                <strong>{value}</strong>
              </Body1>
            </dd>
          </div>
        ))}
      </dl>
      {summary.failures.length > 0 && (
        <ul className={styles.failures} aria-label="Failures">
          {summary.failures.map((failure) => (
            <li key={failure.key}>
              {failure.code}: {failure.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
