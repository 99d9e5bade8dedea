// The outcome of a refresh-all: counts a person checks, and each failure with its cause.
import { Body1, Caption1, makeStyles, tokens } from "@fluentui/react-components";
import type { RefreshSummary } from "../../core/engine-api";
import { formatDateTime } from "../messages";
import { ReleaseChangesView } from "./ReleaseChangesView";

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
  const unconfirmed = summary.requestsUnconfirmed ?? 0;
  // One line per cause: an outage fails every series of a product for the same reason.
  const causes = new Map<string, string[]>();
  for (const failure of summary.failures)
    causes.set(failure.message, [...(causes.get(failure.message) ?? []), failure.code]);
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
      {unconfirmed > 0 && (
        <Caption1 data-testid="requests-unconfirmed">
          {unconfirmed} more request{unconfirmed === 1 ? " was" : "s were"} sent without an answer: the
          service may or may not have charged {unconfirmed === 1 ? "it" : "them"} (the usage bars check it).
        </Caption1>
      )}
      {causes.size > 0 && (
        <ul className={styles.failures} aria-label="Failures">
          {[...causes].map(([cause, codes]) => (
            <li key={cause}>
              {codes.length === 1 ? codes[0] : `${codes.length} series (${shortList(codes)})`}: {cause}
            </li>
          ))}
        </ul>
      )}
      {summary.changes && <ReleaseChangesView changes={summary.changes} finishedAt={summary.finishedAt} />}
    </div>
  );
}

/** "a, b, c and 34 more": the codes of one cause without a wall of text. */
function shortList(codes: readonly string[], shown = 3): string {
  if (codes.length <= shown) return codes.join(", ");
  return `${codes.slice(0, shown).join(", ")} and ${codes.length - shown} more`;
}
