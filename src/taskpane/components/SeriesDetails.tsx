// Every Series Info field of one series. Service text is rendered as React text nodes
// only (never as markup), so a catalog entry containing HTML shows as the literal text.
import { makeStyles, Subtitle2, tokens } from "@fluentui/react-components";
import type { SeriesInfo } from "../../core/model";
import { extraFields, SERIES_FIELDS } from "../series-fields";

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    paddingTop: tokens.spacingVerticalS,
  },
  list: {
    display: "grid",
    gridTemplateColumns: "minmax(90px, 38%) 1fr",
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXXS,
    margin: 0,
  },
  pair: { display: "contents" },
  term: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, overflowWrap: "anywhere", fontSize: tokens.fontSizeBase200 },
});

export function SeriesDetails(props: { info: SeriesInfo }): React.JSX.Element {
  const styles = useStyles();
  const { info } = props;
  const extras = extraFields(info);
  return (
    <section className={styles.root} aria-label={`Details of ${info.code}`} data-testid="series-details">
      <Subtitle2 as="h3">{info.assessment}</Subtitle2>
      <dl className={styles.list}>
        {SERIES_FIELDS.map((field) => (
          <div key={field.name} className={styles.pair}>
            <dt className={styles.term}>{field.label}</dt>
            <dd className={styles.value} data-field={field.name}>
              {field.read(info)}
            </dd>
          </div>
        ))}
        {extras.map((extra) => (
          <div key={extra.name} className={styles.pair}>
            <dt className={styles.term}>{extra.name}</dt>
            <dd className={styles.value}>{extra.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
