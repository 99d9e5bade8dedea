// Data allowance per dataset as bars: what remains of the monthly total, grouped by product.
import { Caption1, Field, makeStyles, ProgressBar, Subtitle2, tokens } from "@fluentui/react-components";
import type { LimitsRow } from "../../core/engine-api";
import { PRODUCTS } from "../../core/model";
import { allowanceText } from "../messages";
import { PRODUCT_LABELS } from "../series-filters";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
});

/** Below this fraction of the allowance the bar turns to a warning, at zero to an error. */
const LOW_FRACTION = 0.1;

export function UsageBars(props: { rows: readonly LimitsRow[] }): React.JSX.Element {
  const styles = useStyles();
  if (props.rows.length === 0)
    return <Caption1>No subscribed datasets were reported by the service.</Caption1>;
  return (
    <div className={styles.root} data-testid="usage-bars">
      {PRODUCTS.map((product) => {
        const rows = props.rows.filter((row) => row.product === product);
        if (rows.length === 0) return null;
        return (
          <section key={product} className={styles.root} aria-label={`${PRODUCT_LABELS[product]} allowances`}>
            <Subtitle2 as="h3">{PRODUCT_LABELS[product]}</Subtitle2>
            {rows.map((row) => {
              const { label, fraction } = allowanceText(row.remaining, row.total);
              const state = fraction === 0 ? "error" : fraction < LOW_FRACTION ? "warning" : "none";
              return (
                <Field
                  key={row.dataset}
                  label={row.dataset}
                  hint={label}
                  validationState={state}
                  data-dataset={row.dataset}
                  data-remaining={row.remaining}
                >
                  <ProgressBar value={fraction} thickness="large" aria-label={`${row.dataset}: ${label}`} />
                </Field>
              );
            })}
          </section>
        );
      })}
    </div>
  );
}
