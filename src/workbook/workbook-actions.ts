// Freeze, Restore and "Write report" for the whole runtime: the ribbon's Freeze menu
// (src/commands/commands.ts) and the task pane both run them here, one at a time, and
// the pane shows the outcome of whichever started it.
import type { SeriesReleaseChanges } from "../core/release-changes";
import { reportSheetName, reportTable, reportTooLarge } from "./release-report";
import { describeRefused, freeze, type FreezeOutcome } from "./freeze";
import type { RecordSeal } from "./record-seal";
import {
  restore,
  type ChangedBlock,
  type EditedCell,
  type RestoreOutcome,
  type UnconfirmedCell,
} from "./restore";
import { seriesProvenance, type ProvenanceEngine } from "./series-provenance";
import type { CellScalar, FreezeScope, WorkbookHost } from "./workbook-host";

/** The ribbon menu's items (manifest.xml) and the pane's buttons. */
export const WORKBOOK_ACTIONS = [
  "freezeSelection",
  "freezeSheet",
  "freezeWorkbook",
  "restoreAll",
  "restoreSelection",
] as const;
export type WorkbookAction = (typeof WORKBOOK_ACTIONS)[number];

const SCOPES: Record<WorkbookAction, FreezeScope | "all" | "selection"> = {
  freezeSelection: "selection",
  freezeSheet: "sheet",
  freezeWorkbook: "workbook",
  restoreAll: "all",
  restoreSelection: "selection",
};

/** What the person agreed to before a Restore ran: it carries over when they agree to more. */
export interface RestoreAgreement {
  confirmed: readonly UnconfirmedCell[];
  overwrite: readonly ChangedBlock[];
}

export type ActionResult =
  | { kind: "freeze"; outcome: FreezeOutcome }
  | { kind: "restore"; outcome: RestoreOutcome; agreed: RestoreAgreement };

export type ActionState =
  | { status: "idle" }
  | { status: "running"; action: WorkbookAction }
  | { status: "done"; action: WorkbookAction; result: ActionResult }
  | { status: "failed"; action: WorkbookAction; message: string };

export class WorkbookActions {
  private state: ActionState = { status: "idle" };
  private running: Promise<void> | null = null;
  private readonly listeners = new Set<(state: ActionState) => void>();

  constructor(
    private readonly host: () => WorkbookHost,
    private readonly engine: () => ProvenanceEngine,
    private readonly seal: RecordSeal,
    private readonly now: () => number = () => Date.now(),
  ) {}

  current(): ActionState {
    return this.state;
  }

  subscribe(listener: (state: ActionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs an action; one runs at a time (a second click waits for the first). Never rejects.
   * `confirmed`: the entries frozen elsewhere that the person saw listed and agreed to restore;
   * `overwrite`: the edited blocks whose listed cells the person agreed to overwrite.
   */
  async run(
    action: WorkbookAction,
    confirmed: readonly UnconfirmedCell[] = [],
    overwrite: readonly ChangedBlock[] = [],
  ): Promise<void> {
    while (this.running) await this.running;
    this.running = this.perform(action, confirmed, overwrite).finally(() => {
      this.running = null;
    });
    await this.running;
  }

  /**
   * Runs the last Restore again with these entries frozen elsewhere confirmed as well. What the
   * person agreed to before (other entries, edited blocks to overwrite) still holds: agreeing to
   * one question must not take back the answer to the other.
   */
  async confirmAndRestore(cells: readonly UnconfirmedCell[]): Promise<void> {
    const last = this.lastRestore();
    if (last === null) return;
    await this.run(last.action, [...last.agreed.confirmed, ...cells], last.agreed.overwrite);
  }

  /** Runs the last Restore again, overwriting this edited block as well (see confirmAndRestore). */
  async overwriteAndRestore(block: ChangedBlock): Promise<void> {
    const last = this.lastRestore();
    if (last === null) return;
    await this.run(last.action, last.agreed.confirmed, [...last.agreed.overwrite, block]);
  }

  private lastRestore(): { action: WorkbookAction; agreed: RestoreAgreement } | null {
    const state = this.state;
    if (state.status !== "done" || state.result.kind !== "restore") return null;
    return { action: state.action, agreed: state.result.agreed };
  }

  /**
   * Writes the release's changes to a sheet "PCD changes <YYYY-MM>"; resolves to its address.
   * The whole report or nothing: a report larger than a sheet holds is refused before any
   * sheet is touched.
   */
  async writeReport(changes: readonly SeriesReleaseChanges[], finishedAt: number): Promise<string> {
    const host = this.host();
    const table = reportTable(changes);
    const tooLarge = reportTooLarge(table, await host.sheetLimits());
    if (tooLarge !== null) throw new Error(tooLarge);
    return host.writeSheet(reportSheetName(finishedAt), table);
  }

  private async perform(
    action: WorkbookAction,
    confirmed: readonly UnconfirmedCell[],
    overwrite: readonly ChangedBlock[],
  ): Promise<void> {
    this.set({ status: "running", action });
    try {
      const scope = SCOPES[action];
      const host = this.host();
      const result: ActionResult = action.startsWith("freeze")
        ? {
            kind: "freeze",
            outcome: await freeze({
              host,
              scope: scope as FreezeScope,
              provenance: (formula) => seriesProvenance(this.engine(), formula, this.now()),
              now: this.now,
              seal: this.seal,
            }),
          }
        : {
            kind: "restore",
            outcome: await restore(host, scope as "all" | "selection", {
              seal: this.seal,
              confirmed,
              overwrite,
            }),
            agreed: { confirmed, overwrite },
          };
      this.set({ status: "done", action, result });
    } catch (error) {
      this.set({ status: "failed", action, message: error instanceof Error ? error.message : String(error) });
    }
  }

  private set(state: ActionState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener(state);
  }
}

const SCOPE_WORDS: Record<FreezeScope, string> = {
  selection: "the selection",
  sheet: "this sheet",
  workbook: "this workbook",
};

/** What the pane says about an action's outcome. */
export function describeActionState(
  state: ActionState,
): { intent: "info" | "success" | "warning" | "error"; text: string } | null {
  if (state.status === "idle") return null;
  if (state.status === "running") {
    return { intent: "info", text: state.action.startsWith("freeze") ? "Freezing…" : "Restoring…" };
  }
  if (state.status === "failed") {
    const what = state.action.startsWith("freeze") ? "Freeze" : "Restore";
    return { intent: "error", text: `${what} failed: ${state.message}` };
  }
  const { result } = state;
  if (result.kind === "freeze") {
    const { outcome } = result;
    if (outcome.status === "nothing") {
      return { intent: "info", text: `Nothing to freeze: ${SCOPE_WORDS[outcome.scope]} has no PCD formula.` };
    }
    if (outcome.status === "refused") {
      return {
        intent: "warning",
        text: `Nothing was frozen: ${describeRefused(outcome.refused)} ${outcome.refused.length === 1 ? "shows" : "show"} no value to freeze. Wait for #BUSY! to pass or fix the error, then freeze again.`,
      };
    }
    const count = outcome.cells.length;
    return {
      intent: "success",
      text: `Froze ${count} PCD cell${count === 1 ? "" : "s"} to values. Their sources are on the sheet "PCD sources"; Restore puts the formulas back.`,
    };
  }
  const { outcome } = result;
  const parts: string[] = [];
  const waiting = outcome.unconfirmed.length + outcome.refused.length;
  if (outcome.restored.length > 0) {
    parts.push(`Restored ${outcome.restored.length} formula${outcome.restored.length === 1 ? "" : "s"}.`);
  } else if (outcome.changed.length === 0 && waiting === 0) {
    parts.push("Nothing to restore: no frozen cell here.");
  }
  if (outcome.unconfirmed.length > 0) {
    const count = outcome.unconfirmed.length;
    parts.push(
      `${count} frozen cell${count === 1 ? " was" : "s were"} not frozen on this computer (or the record was edited in the file): ${count === 1 ? "its formula is" : "their formulas are"} listed below, and restored only if you confirm.`,
    );
  }
  const untrusted = outcome.refused.filter((entry) => entry.missingSheet === undefined);
  if (untrusted.length > 0) {
    const listed = untrusted
      .slice(0, 5)
      .map((entry) => `${entry.where} (${entry.reason})`)
      .join("; ");
    const more = untrusted.length > 5 ? `; and ${untrusted.length - 5} more` : "";
    parts.push(
      `Not restored, the workbook's freeze record is not one PCD wrote: ${listed}${more}. Nothing was written there.`,
    );
  }
  const sheetsGone = [...new Set(outcome.refused.flatMap((entry) => entry.missingSheet ?? []))];
  if (sheetsGone.length > 0) {
    const count = outcome.refused.length - untrusted.length;
    const names = sheetsGone.map((sheet) => `"${sheet}"`).join(", ");
    parts.push(
      `Not restored, ${count === 1 ? "1 frozen range is" : `${count} frozen ranges are`} on ${sheetsGone.length === 1 ? "a sheet" : "sheets"} the workbook no longer has (${names}: renamed or deleted since the freeze). PCD keeps ${count === 1 ? "its" : "their"} record: give the sheet its name back and Restore again.`,
    );
  }
  for (const block of outcome.changed) {
    const count = block.cells.length;
    parts.push(
      `Not restored, ${block.range} changed since the freeze in ${count === 1 ? "one cell" : `${count} cells`}: ${block.cells.map(describeEdit).join(", ")}. ${count === 1 ? "It keeps" : "They keep"} what was typed and PCD keeps the formula: undo the edit and Restore again, or choose "Restore anyway" to overwrite ${count === 1 ? "it" : "them"}.`,
    );
  }
  return {
    intent:
      outcome.changed.length > 0 || waiting > 0
        ? "warning"
        : outcome.restored.length > 0
          ? "success"
          : "info",
    text: parts.join(" "),
  };
}

/** A number as a person reads it (up to 10 significant digits, as Excel's General format). */
function readable(value: CellScalar): string {
  if (value === "") return "empty";
  if (typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value))
    return String(Number(value.toPrecision(10)));
  return String(value);
}

/** "C3 (frozen 28.56846667, now 123)": the cell without its sheet, which the block names. */
export function describeEdit(edit: EditedCell): string {
  return `${edit.cell.slice(edit.cell.lastIndexOf("!") + 1)} (frozen ${readable(edit.frozen)}, now ${readable(edit.now)})`;
}
