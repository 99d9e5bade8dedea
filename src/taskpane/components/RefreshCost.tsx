// What refreshing this workbook would cost, per dataset, before it runs (planRefresh).
import { Caption1, makeStyles, MessageBar, MessageBarBody, tokens } from "@fluentui/react-components";
import type { RefreshPlan } from "../../core/engine-api";
import { utcTime } from "../outage-text";

const useStyles = makeStyles({
  table: { width: "100%", borderCollapse: "collapse", fontSize: tokens.fontSizeBase200 },
  cell: { textAlign: "left", padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalXS}` },
  number: { textAlign: "right", padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalXS}` },
});

export function RefreshCost(props: { plan: RefreshPlan }): React.JSX.Element {
  const styles = useStyles();
  const { plan } = props;
  const spending = plan.cost.filter((row) => row.requests > 0);
  return (
    <div data-testid="refresh-cost">
      {spending.length === 0 ? (
        <Caption1 block>
          Refreshing now costs no data requests:{" "}
          {plan.items.length === 0 ? "the workbook has no PCD data yet." : "everything is up to date."}
        </Caption1>
      ) : (
        <table className={styles.table}>
          <caption className={styles.cell}>
            Refreshing this workbook uses {plan.totalRequests} data request
            {plan.totalRequests === 1 ? "" : "s"}:
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
              <tr key={`${row.product}|${row.dataset}`}>
                <td className={styles.cell}>{row.dataset}</td>
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
      {plan.releaseSinceCatalog === true && (
        <MessageBar layout="multiline" intent="warning" data-testid="refresh-cost-outdated">
          <MessageBarBody>
            A monthly release came out since then and the catalog could not be checked again: the refresh may
            cost more than this.
          </MessageBarBody>
        </MessageBar>
      )}
      {plan.overBudget.length > 0 && (
        <MessageBar layout="multiline" intent="warning">
          <MessageBarBody>
            Not enough allowance left for {plan.overBudget.join(", ")}: those series keep their cached data.
          </MessageBarBody>
        </MessageBar>
      )}
    </div>
  );
}
