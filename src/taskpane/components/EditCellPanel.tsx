// "Edit cell": when the selected cell holds one PCD call, its arguments fill a form (one
// field per argument of that function, references and nested expressions shown as typed)
// and "Update cell", in the form's own footer, writes the edited formula into that cell.
// Any other cell shows nothing. Labels and fields sit in two columns that line up from
// one argument to the next, at every pane width.
import { useEffect, useState } from "react";
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Subtitle2,
  tokens,
} from "@fluentui/react-components";
import { cellEditFromFormula, updatedFormula, type CellEdit } from "../../workbook/cell-edit";
import type { SelectedCell } from "../excel-bridge";
import { describeError } from "../messages";
import { usePaneServices } from "../pane-services";

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    padding: tokens.spacingHorizontalS,
  },
  /** Horizontal fields stacked: Fluent puts every label in one column and every input in the next. */
  fields: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalS,
    "& input": { minWidth: 0, width: "100%" },
  },
  field: { minWidth: 0 },
  footer: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    paddingTop: tokens.spacingVerticalS,
  },
  formula: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: "anywhere",
    backgroundColor: tokens.colorNeutralBackground3,
    padding: tokens.spacingHorizontalXS,
  },
});

function cellName(address: string): string {
  return address.slice(address.lastIndexOf("!") + 1);
}

export function EditCellPanel(props: {
  /** The selected cell, as the workbook last reported it. */
  cell: SelectedCell | null;
  /** The selection's move count: a move starts the form afresh from the cell. */
  moves: number;
}): React.JSX.Element | null {
  const styles = useStyles();
  const { workbook } = usePaneServices();
  const { cell, moves } = props;
  const [edit, setEdit] = useState<CellEdit | null>(null);
  // The formula the form was made from: Update writes only while the cell still holds it.
  const [origin, setOrigin] = useState("");
  const [values, setValues] = useState<string[]>([]);
  const [result, setResult] = useState<{ intent: "success" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const show = (next: CellEdit | null): void => {
    setEdit(next);
    setValues(next ? next.fields.map((field) => field.value) : []);
  };

  useEffect(() => {
    const next = cell ? cellEditFromFormula(cell.address, cell.formula) : null;
    setOrigin(cell?.formula ?? "");
    setEdit(next);
    setValues(next ? next.fields.map((field) => field.value) : []);
    setResult(null);
  }, [cell, moves]);

  if (!edit) return null;

  let formula = "";
  let formulaError: string | null = null;
  try {
    formula = updatedFormula(edit, values);
  } catch (error) {
    formulaError = describeError(error);
  }

  const update = async (): Promise<void> => {
    setBusy(true);
    setResult(null);
    try {
      await workbook.writeFormula(edit.address, formula, origin);
      // The written formula is the new starting point: unchanged fields stay as typed.
      setOrigin(formula);
      show(cellEditFromFormula(edit.address, formula));
      setResult({ intent: "success", text: `Updated ${cellName(edit.address)}.` });
    } catch (error) {
      setResult({ intent: "error", text: `Could not update the cell: ${describeError(error)}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.root} aria-label="Edit PCD cell" data-testid="edit-cell">
      <Subtitle2 as="h2">
        Edit PCD.{edit.name} in {cellName(edit.address)}
      </Subtitle2>
      <div className={styles.fields}>
        {edit.fields.map((field, index) => (
          <Field
            key={field.name}
            className={styles.field}
            orientation="horizontal"
            label={field.label}
            hint={field.expression && values[index] === field.value ? "kept as typed" : field.hint}
          >
            <Input
              name={`edit-${field.name}`}
              value={values[index] ?? ""}
              onChange={(_event, data) =>
                setValues((previous) => previous.map((value, at) => (at === index ? data.value : value)))
              }
            />
          </Field>
        ))}
      </div>
      <footer className={styles.footer} data-testid="edit-footer">
        {formulaError === null ? (
          <code className={styles.formula} data-testid="edit-formula">
            {formula}
          </code>
        ) : (
          <MessageBar layout="multiline" intent="warning">
            <MessageBarBody>{formulaError}</MessageBarBody>
          </MessageBar>
        )}
        <Button appearance="primary" disabled={busy || formulaError !== null} onClick={() => void update()}>
          Update cell
        </Button>
        {result && (
          <MessageBar
            layout="multiline"
            intent={result.intent}
            role={result.intent === "error" ? "alert" : "status"}
          >
            <MessageBarBody>{result.text}</MessageBarBody>
          </MessageBar>
        )}
      </footer>
    </section>
  );
}
