// What refreshing this workbook would cost, per dataset, before it runs (planRefresh).
import { Button, Caption1, makeStyles, MessageBar, MessageBarBody, tokens } from "@fluentui/react-components";
import type { RefreshPlan } from "../../core/engine-api";
import type { ProductId } from "../../core/model";
import { PRODUCT_LABELS } from "../series-filters";
import { formatDateTime } from "../messages";
import { utcTime } from "../outage-text";

const useStyles = makeStyles({
  table: { width: "100%", borderCollapse: "collapse", fontSize: tokens.fontSizeBase200 },
  cell: { textAlign: "left", padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalXS}` },
  number: { textAlign: "right", padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalXS}` },
});

type CostRow = RefreshPlan["cost"][number];

/**
 * A row's dataset as the user can tell it apart: dataset names are the products' own, and
 * one name ("Germany") can be a dataset of several products, so those rows name the product.
 */
export function datasetLabels(
  rows: readonly CostRow[],
): (row: { product: ProductId; dataset: string }) => string {
  const products = new Map<string, Set<ProductId>>();
  for (const row of rows)
    products.set(row.dataset, (products.get(row.dataset) ?? new Set()).add(row.product));
  return (row) =>
    (products.get(row.dataset)?.size ?? 0) > 1
      ? `${row.dataset} (${PRODUCT_LABELS[row.product]})`
      : row.dataset;
}

export function RefreshCost(props: {
  plan: RefreshPlan;
  /** Reads the catalogs again and works the cost out anew (the user asked). */
  onRecheck?: () => void;
  /** A new cost is being worked out. */
  checking?: boolean;
}): React.JSX.Element {
  const styles = useStyles();
  const { plan, onRecheck, checking = false } = props;
  // What each dataset's changed series need (more than is spent where the allowance is short).
  const needed = (row: CostRow): number => row.needed ?? row.requests;
  // In a downtime the sentence that no refresh can run, and that its cost is known once the
  // service is back, stands instead of a cost: the cached catalog's cost beside it would
  // contradict it (a release's changes are not in that catalog yet).
  const costRows = plan.closed === undefined ? plan.cost : [];
  const spending = costRows.filter((row) => needed(row) > 0);
  const label = datasetLabels(plan.cost);
  const short = costRows.filter((row) => row.remaining !== null && needed(row) > row.remaining);
  return (
    <div data-testid="refresh-cost">
      {plan.closed !== undefined && (
        // In a downtime nothing was checked against the service: "up to date" would be a guess.
        <Caption1 block data-testid="refresh-cost-closed">
          {closedText(plan.closed)}
        </Caption1>
      )}
      {spending.length === 0 ? (
        plan.closed === undefined && (
          <Caption1 block>
            Refreshing now costs no data requests:{" "}
            {plan.items.length === 0 ? "the workbook has no PCD data yet." : "everything is up to date."}
          </Caption1>
        )
      ) : (
        <table className={styles.table}>
          <caption className={styles.cell}>
            {plan.throughGateway === true
              ? `Refreshing this workbook asks your team's gateway for ${requestsText(plan.totalRequests)}; it charges the team only for series it does not keep already:`
              : `Refreshing this workbook uses ${requestsText(plan.totalRequests)}:`}
          </caption>
          <thead>
            <tr>
              <th className={styles.cell} scope="col">
                Dataset
              </th>
              <th className={styles.number} scope="col">
                Requests
              </th>
              <th className={styles.number} scope="col">
                Left
              </th>
            </tr>
          </thead>
          <tbody>
            {spending.map((row) => (
              <tr key={`${row.product}|${row.dataset}`} data-testid="refresh-cost-row">
                <td className={styles.cell}>{label(row)}</td>
                <td className={styles.number}>{row.requests}</td>
                <td className={styles.number}>{row.remaining ?? "?"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {plan.catalogAsOf != null && (
        // The estimate is only as current as the catalog it rests on.
        <Caption1 as="p" block data-testid="refresh-cost-as-of">
          As of {utcTime(plan.catalogAsOf, Date.now())} (the catalog checked then).
        </Caption1>
      )}
      {plan.catalogAsOf != null && onRecheck !== undefined && plan.closed?.reason !== "maintenance" && (
        // A release off the calendar shows only in the catalog: the user may ask for it now.
        <Button
          size="small"
          appearance="subtle"
          disabled={checking}
          onClick={onRecheck}
          data-testid="refresh-cost-recheck"
        >
          {checking ? "Checking the catalog…" : "Check again"}
        </Button>
      )}
      {plan.releaseSinceCatalog === true && (
        <MessageBar layout="multiline" intent="warning" data-testid="refresh-cost-outdated">
          <MessageBarBody>
            A monthly release came out since then and the catalog could not be checked again: the refresh may
            cost more than this.
          </MessageBarBody>
        </MessageBar>
      )}
      {short.length > 0 && (
        <MessageBar layout="multiline" intent="warning" data-testid="refresh-cost-short">
          <MessageBarBody>
            Not enough allowance left for{" "}
            {short
              .map((row) => `${label(row)}: ${needed(row)} needed, ${row.remaining ?? 0} left`)
              .join("; ")}
            .{" "}
            {plan.throughGateway === true
              ? "The gateway serves the series it keeps at no charge and buys others while the allowance lasts; the series beyond keep their cached data."
              : "The refresh spends what is left; the other series keep their cached data."}
          </MessageBarBody>
        </MessageBar>
      )}
    </div>
  );
}

function requestsText(count: number): string {
  return `${count} data request${count === 1 ? "" : "s"}`;
}

/** Why no refresh can run now, and what the preview then rests on. */
function closedText(closed: NonNullable<RefreshPlan["closed"]>): string {
  const until = formatDateTime(closed.until);
  return closed.reason === "release"
    ? `No refresh can run before the new data is published (by 22:00 US Central Time at the latest, ${until}); its cost is known then.`
    : `No refresh can run during the maintenance (until ${until}); its cost is known once the service is back.`;
}
