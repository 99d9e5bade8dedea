// Usage tab's "Share this workbook" section: Freeze (selection, sheet, workbook) replaces
// PCD formulas with their values for colleagues without PCD, Restore puts them back. The
// same actions are in the ribbon's Freeze menu; whichever ran last, its outcome shows here.
// A block edited since the freeze is restored only after the person saw the cells that
// would be overwritten, listed, and chose "Restore anyway" for that block.
import { useEffect, useState } from "react";
import {
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Subtitle2,
  tokens,
} from "@fluentui/react-components";
import type { ChangedBlock } from "../../workbook/restore";
import { describeActionState, describeEdit, type WorkbookAction } from "../../workbook/workbook-actions";
import { usePaneServices } from "../pane-services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  buttons: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalS },
  confirm: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    overflowWrap: "anywhere",
  },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
});

const FREEZE_BUTTONS: ReadonlyArray<[WorkbookAction, string]> = [
  ["freezeSelection", "Freeze selection"],
  ["freezeSheet", "Freeze sheet"],
  ["freezeWorkbook", "Freeze workbook"],
];
const RESTORE_BUTTONS: ReadonlyArray<[WorkbookAction, string]> = [
  ["restoreAll", "Restore all"],
  ["restoreSelection", "Restore selection"],
];

export function FreezePanel(): React.JSX.Element {
  const styles = useStyles();
  const { actions } = usePaneServices();
  const [state, setState] = useState(() => actions.current());
  // The edited block whose overwrite the person is asked to confirm (its range), if any.
  const [asking, setAsking] = useState<string | null>(null);
  useEffect(() => actions.subscribe(setState), [actions]);
  useEffect(() => setAsking(null), [state]);
  const running = state.status === "running";
  const said = describeActionState(state);
  const outcome = state.status === "done" && state.result.kind === "restore" ? state.result.outcome : null;
  const unconfirmed = outcome?.unconfirmed ?? [];
  const changed = outcome?.changed ?? [];
  const restoreAnyway = (block: ChangedBlock): void => void actions.overwriteAndRestore(block);
  const button = ([action, label]: [WorkbookAction, string], primary = false): React.JSX.Element => (
    <Button
      key={action}
      appearance={primary ? "primary" : "secondary"}
      disabled={running}
      onClick={() => void actions.run(action)}
    >
      {label}
    </Button>
  );
  return (
    <section className={styles.root} aria-label="Share this workbook">
      <Subtitle2 as="h2">Share this workbook</Subtitle2>
      <Caption1>
        Freeze replaces PCD formulas with the values they show, so colleagues without PCD see numbers. The
        sources are listed on a sheet &quot;PCD sources&quot;.
      </Caption1>
      <div className={styles.buttons} role="group" aria-label="Freeze">
        {FREEZE_BUTTONS.map((entry, index) => button(entry, index === 1))}
      </div>
      <div className={styles.buttons} role="group" aria-label="Restore">
        {RESTORE_BUTTONS.map((entry) => button(entry))}
      </div>
      {said && (
        <MessageBar
          layout="multiline"
          intent={said.intent}
          role={said.intent === "error" || said.intent === "warning" ? "alert" : "status"}
          data-testid="freeze-outcome"
        >
          <MessageBarBody>{said.text}</MessageBarBody>
        </MessageBar>
      )}
      {changed.map((block) => (
        <div key={block.range} className={styles.confirm} data-testid="restore-anyway">
          {asking === block.range ? (
            <>
              <Caption1>
                Restore anyway puts the formula back into {block.range} and overwrites what was typed in{" "}
                {block.cells.length === 1 ? "this cell" : `these ${block.cells.length} cells`}:
              </Caption1>
              <ul className={styles.list}>
                {block.cells.map((edit) => (
                  <li key={edit.cell}>
                    <code>{describeEdit(edit)}</code>
                  </li>
                ))}
              </ul>
              <div className={styles.buttons}>
                <Button appearance="primary" disabled={running} onClick={() => restoreAnyway(block)}>
                  {`Overwrite ${block.cells.length === 1 ? "this cell" : `these ${block.cells.length} cells`}`}
                </Button>
                <Button disabled={running} onClick={() => setAsking(null)}>
                  Keep my edits
                </Button>
              </div>
            </>
          ) : (
            <div className={styles.buttons}>
              <Button disabled={running} onClick={() => setAsking(block.range)}>
                {`Restore ${block.range} anyway…`}
              </Button>
            </div>
          )}
        </div>
      ))}
      {unconfirmed.length > 0 && state.status === "done" && (
        <div className={styles.confirm} data-testid="restore-confirm">
          <Caption1>
            Restore writes these formulas into these cells. Restore them only if you trust who sent this
            workbook:
          </Caption1>
          <ul className={styles.list}>
            {unconfirmed.map((cell) => (
              <li key={`${cell.range}|${cell.formula}`}>
                <code>{cell.range}</code>: <code>{cell.formula}</code>
              </li>
            ))}
          </ul>
          <div className={styles.buttons}>
            <Button
              appearance="primary"
              disabled={running}
              onClick={() => void actions.confirmAndRestore(unconfirmed)}
            >
              {`Restore ${unconfirmed.length === 1 ? "this formula" : `these ${unconfirmed.length} formulas`}`}
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
