// Data allowance per dataset as bars: what remains of the monthly total. One section per
// product, the most used datasets first; products with spent allowance start expanded.
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Caption1,
  makeStyles,
  ProgressBar,
  tokens,
} from "@fluentui/react-components";
import type { LimitsRow } from "../../core/engine-api";
import { PRODUCTS, type MemberBudget, type ProductId } from "../../core/model";
import { allowanceText } from "../messages";
import { PRODUCT_LABELS } from "../series-filters";

const useStyles = makeStyles({
  rows: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  row: { display: "flex", flexDirection: "column", gap: "2px" },
  line: {
    display: "flex",
    justifyContent: "space-between",
    gap: tokens.spacingHorizontalS,
    fontSize: tokens.fontSizeBase200,
  },
  name: { overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", minWidth: 0 },
  count: { flex: "none", color: tokens.colorNeutralForeground3 },
  unconfirmed: { color: tokens.colorPaletteMarigoldForeground2, fontStyle: "italic" },
  memberSpent: { color: tokens.colorPaletteRedForeground1 },
});

/** Sent but not confirmed as charged (in flight, or no answer): shown apart from the bar. */
export function unconfirmedText(count: number): string {
  return `${count} more request${count === 1 ? "" : "s"} sent but not confirmed by the service (checked with the next usage read)`;
}

/** The signed-in member's own budget, which a team gateway keeps beside the team's allowance. */
export function memberBudgetText(member: MemberBudget): string {
  return `Your budget: ${allowanceText(member.remaining, member.budget).label}`;
}

/** Below this fraction of the allowance the bar turns to a warning, at zero to an error. */
const LOW_FRACTION = 0.1;

function productsOpenAtStart(rows: readonly LimitsRow[], products: readonly ProductId[]): ProductId[] {
  const used = products.filter((product) =>
    rows.some((row) => row.product === product && row.remaining < row.total),
  );
  return used.length > 0 ? used : products.slice(0, 1);
}

export function UsageBars(props: { rows: readonly LimitsRow[] }): React.JSX.Element {
  const styles = useStyles();
  const products = PRODUCTS.filter((product) => props.rows.some((row) => row.product === product));
  if (products.length === 0) return <Caption1>No subscribed datasets were reported by the service.</Caption1>;
  return (
    <Accordion
      multiple
      collapsible
      defaultOpenItems={productsOpenAtStart(props.rows, products)}
      data-testid="usage-bars"
    >
      {products.map((product) => {
        const rows = props.rows
          .filter((row) => row.product === product)
          .map((row) => ({ row, ...allowanceText(row.remaining, row.total) }))
          .sort((a, b) => a.fraction - b.fraction);
        const used = rows.filter(({ row }) => row.remaining < row.total).length;
        return (
          <AccordionItem key={product} value={product}>
            <AccordionHeader size="small">
              {PRODUCT_LABELS[product]} ({rows.length} {rows.length === 1 ? "dataset" : "datasets"}
              {used > 0 ? `, ${used} used` : ""})
            </AccordionHeader>
            <AccordionPanel>
              <div className={styles.rows}>
                {rows.map(({ row, label, fraction }) => (
                  <div
                    key={row.dataset}
                    className={styles.row}
                    data-dataset={row.dataset}
                    data-remaining={row.remaining}
                    data-unconfirmed={row.unconfirmed ?? 0}
                  >
                    <div className={styles.line}>
                      <span className={styles.name} title={row.dataset}>
                        {row.dataset}
                      </span>
                      {/* With a member budget the bar is the team's: both say whose they are. */}
                      <span className={styles.count}>{row.member ? `Team: ${label}` : label}</span>
                    </div>
                    {row.member && (
                      <Caption1
                        className={row.member.remaining <= 0 ? styles.memberSpent : undefined}
                        data-testid="member-budget"
                        data-member-remaining={row.member.remaining}
                      >
                        {memberBudgetText(row.member)}
                      </Caption1>
                    )}
                    {(row.unconfirmed ?? 0) > 0 && (
                      // Not subtracted from the bar: the service may not have charged them.
                      <Caption1 className={styles.unconfirmed} data-testid="unconfirmed">
                        {unconfirmedText(row.unconfirmed ?? 0)}
                      </Caption1>
                    )}
                    <ProgressBar
                      value={fraction}
                      color={fraction === 0 ? "error" : fraction < LOW_FRACTION ? "warning" : "brand"}
                      aria-label={`${PRODUCT_LABELS[product]}, ${row.dataset}: ${row.member ? `team ${label}` : label}`}
                    />
                  </div>
                ))}
              </div>
            </AccordionPanel>
          </AccordionItem>
        );
      })}
    </Accordion>
  );
}
