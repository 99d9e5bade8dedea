// "Edit cell": when the selected cell holds one PCD call, its arguments fill a form (one
// field per argument of that function, references and nested expressions shown as typed)
// and "Update cell" writes the edited formula into that cell. Any other cell shows nothing.
import { useCallback, useEffect, useState } from "react";
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
  fields: {
    display: "grid",
    gridTemplateColumns: "repeat(auto-fit, minmax(130px, 1fr))",
    gap: tokens.spacingHorizontalS,
    "& > *": { minWidth: 0 },
    "& input": { minWidth: 0, width: "100%" },
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

export function EditCellPanel(): React.JSX.Element | null {
  const styles = useStyles();
  const { workbook } = usePaneServices();
  const [edit, setEdit] = useState<CellEdit | null>(null);
  const [values, setValues] = useState<string[]>([]);
  const [result, setResult] = useState<{ intent: "success" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const read = useCallback(async (): Promise<CellEdit | null> => {
    try {
      const cell = await workbook.selectedCell();
      return cellEditFromFormula(cell.address, cell.formula);
    } catch {
      // Outside Excel (or while Excel is busy) there is simply no cell to edit.
      return null;
    }
  }, [workbook]);

  const show = useCallback((next: CellEdit | null): void => {
    setEdit(next);
    setValues(next ? next.fields.map((field) => field.value) : []);
  }, []);

  useEffect(() => {
    let live = true;
    let stop: (() => Promise<void>) | null = null;
    const refresh = (): void => {
      void read().then((next) => {
        if (!live) return;
        show(next);
        setResult(null);
      });
    };
    refresh();
    workbook.onSelectionChanged(refresh).then(
      (remove) => {
        if (live) stop = remove;
        else void remove();
      },
      () => undefined,
    );
    return () => {
      live = false;
      void stop?.().catch(() => undefined);
    };
  }, [workbook, read, show]);

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
      await workbook.writeFormula(edit.address, formula);
      // The written formula is the new starting point: unchanged fields stay as typed.
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
    </section>
  );
}
