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
    [summary.throughGateway ? "Requests answered" : "Requests used", summary.requestsUsed],
  ];
  const unconfirmed = summary.requestsUnconfirmed ?? 0;
  const causes = failuresByCause(summary.failures);
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
      {summary.throughGateway && (
        <Caption1 data-testid="requests-through-gateway">
          Your team's gateway answered these: it bought only the series it did not keep already. The usage
          bars show what the team and you have left.
        </Caption1>
      )}
      {unconfirmed > 0 && (
        <Caption1 data-testid="requests-unconfirmed">
          {unconfirmed} more request{unconfirmed === 1 ? " was" : "s were"} sent without an answer: the
          service may or may not have charged {unconfirmed === 1 ? "it" : "them"} (the usage bars check it).
        </Caption1>
      )}
      {causes.length > 0 && (
        <ul className={styles.failures} aria-label="Failures">
          {causes.map(({ cause, codes }) => (
            <li key={cause}>
              {failedSeriesText(codes)}: {cause}
              {codes.length > LISTED_CODES && (
                <details>
                  <summary>Show all {codes.length}</summary>
                  {codes.join(", ")}
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
      {summary.changes && <ReleaseChangesView changes={summary.changes} finishedAt={summary.finishedAt} />}
    </div>
  );
}

/** Codes named on a failure's line; more are behind "Show all". */
const LISTED_CODES = 3;

/**
 * One entry per cause (an outage fails every series of a product for the same reason), each
 * series named once: a series asked for in two currencies or units fails once per request
 * key, with the same code.
 */
export function failuresByCause(
  failures: readonly { code: string; message: string }[],
): Array<{ cause: string; codes: string[] }> {
  const causes = new Map<string, Set<string>>();
  for (const failure of failures) {
    const codes = causes.get(failure.message) ?? new Set<string>();
    codes.add(failure.code);
    causes.set(failure.message, codes);
  }
  return [...causes].map(([cause, codes]) => ({ cause, codes: [...codes] }));
}

/** "68520-8-1", "2 series (64643-1-12, 68520-8-1)" or "34 series": never a list cut short. */
export function failedSeriesText(codes: readonly string[]): string {
  if (codes.length === 1) return codes[0] ?? "";
  if (codes.length <= LISTED_CODES) return `${codes.length} series (${codes.join(", ")})`;
  return `${codes.length} series`;
}
