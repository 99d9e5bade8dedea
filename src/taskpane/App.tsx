import { useState } from "react";
import { makeStyles, Tab, TabList, Text, Title3, tokens } from "@fluentui/react-components";

// The task pane shell: the four areas of design.md section 3. Each area's content is
// built in the task pane issue; until then the shell says so instead of pretending.
type Area = "account" | "series" | "usage" | "status";

const AREAS: ReadonlyArray<{ id: Area; label: string; pending: string }> = [
  {
    id: "account",
    label: "Sign in",
    pending: "Sign-in (username, password, Live or Sandbox) comes with the task pane issue.",
  },
  {
    id: "series",
    label: "Series",
    pending: "The series picker (search, filters, insert formulas) comes with the task pane issue.",
  },
  {
    id: "usage",
    label: "Usage",
    pending: "Data allowance per dataset and refresh cost come with the task pane issue.",
  },
  {
    id: "status",
    label: "Status",
    pending: "Service state, cache and last refresh come with the task pane issue.",
  },
];

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalM,
    minWidth: "280px",
  },
  panel: { color: tokens.colorNeutralForeground2 },
});

export function App(): React.JSX.Element {
  const styles = useStyles();
  const [area, setArea] = useState<Area>("account");
  const current = AREAS.find((entry) => entry.id === area) ?? AREAS[0]!;
  return (
    <main className={styles.root}>
      <Title3 as="h1">PCD</Title3>
      <TabList selectedValue={area} onTabSelect={(_event, data) => setArea(data.value as Area)} size="small">
        {AREAS.map((entry) => (
          <Tab key={entry.id} value={entry.id}>
            {entry.label}
          </Tab>
        ))}
      </TabList>
      <section aria-live="polite" className={styles.panel}>
        <Text>{current.pending}</Text>
      </section>
    </main>
  );
}
