// A mock Office host for the browser: Excel cannot run here, so this page provides the
// parts of Office, Excel, CustomFunctions and OfficeRuntime the add-in uses, then the real
// bundles load on top of it (this module must run before them: it is the page's first
// entry). Everything the add-in does through these APIs is recorded for the preview's
// test API (window.__pcdPreview).
import { cellName, parseRange, rangeAddress, SHEET_NAME, type CellPosition, type RangeArea } from "./a1";
import type { CellResult, CustomFunction } from "./cell-evaluator";
import { displayScalar, type DisplayCell } from "./sheet-layout";
import { SHIM_ERROR_CODES, ShimCustomFunctionsError } from "../headless/custom-functions-shim";
import { formulaOfContent, SheetModel, typedContentValue } from "./sheet-model";
import { DIALOG_EVENT_TYPES, displayPreviewDialog } from "./mock-dialog";

export interface RecordedWrite {
  address: string;
  formulas: string[][];
}

export interface HostRecord {
  functions: Map<string, CustomFunction>;
  actions: Map<string, (event: { completed(): void }) => unknown>;
  writes: RecordedWrite[];
  calculations: number;
  taskpaneShown: number;
  /** What Office.addin.setStartupBehavior last set ("None" until then). */
  startupBehavior: "Load" | "None";
  /** Office.context.document.settings as last saved (saveAsync). */
  settings: Map<string, unknown>;
}

/** What the preview's cells show, for range.values (index.ts supplies it). */
export interface PreviewEvaluation {
  layout(): Map<string, DisplayCell>;
  result(address: string): CellResult | undefined;
}

/** A custom function's formatted number (dates): Excel's FormattedNumber cell value. */
interface FormattedNumber {
  type: string;
  basicValue: number;
  numberFormat?: string;
}

function isFormattedNumber(value: unknown): value is FormattedNumber {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { basicValue?: unknown }).basicValue === "number" &&
    typeof (value as { type?: unknown }).type === "string"
  );
}

/** "'PCD sources'!A1:B2" for other sheets, "Sheet1!A1" as before for the first. */
function addressOn(sheetName: string, area: RangeArea): string {
  const cells = rangeAddress(area).slice(SHEET_NAME.length + 1);
  const quoted = /^[A-Za-z0-9_]+$/.test(sheetName) ? sheetName : `'${sheetName.replaceAll("'", "''")}'`;
  return `${quoted}!${cells}`;
}

/** Requirement sets the preview claims: dates come back as formatted numbers, as in current Excel. */
const SUPPORTED_SETS: Record<string, number> = {
  ExcelApi: 1.19,
  CustomFunctionsRuntime: 1.4,
  SharedRuntime: 1.1,
  RibbonApi: 1.1,
};

function isSupported(name: string, minVersion?: string): boolean {
  const version = SUPPORTED_SETS[name];
  if (version === undefined) return false;
  return minVersion === undefined || Number(minVersion) <= version;
}

/** A queued write applied at the next context.sync(), like Excel's batched proxy objects. */
type PendingOperation = () => void;

class PreviewRange {
  private loaded: {
    address: string;
    formulas: string[][];
    values: unknown[][];
    numberFormat: string[][];
    valuesAsJson: unknown[][];
    text: string[][];
  } | null = null;

  constructor(
    private readonly context: PreviewRequestContext,
    readonly area: RangeArea,
    readonly sheetName: string = SHEET_NAME,
    /** A null object (getSpillingToRangeOrNullObject of a cell that spills nothing). */
    readonly isNullObject = false,
  ) {}

  private require(property: string): NonNullable<PreviewRange["loaded"]> {
    if (this.loaded === null) {
      throw new Error(
        `The property "${property}" is not loaded: call range.load("${property}") and context.sync() first.`,
      );
    }
    return this.loaded;
  }

  get address(): string {
    return this.require("address").address;
  }

  get rowCount(): number {
    return this.area.rowCount;
  }

  get columnCount(): number {
    return this.area.columnCount;
  }

  get rowIndex(): number {
    return this.area.row;
  }

  get columnIndex(): number {
    return this.area.column;
  }

  load(_properties?: string | string[]): this {
    this.context.queue(() => {
      if (this.isNullObject) return;
      const host = this.context.host;
      const cells = (read: (position: CellPosition) => unknown): unknown[][] =>
        Array.from({ length: this.area.rowCount }, (_row, r) =>
          Array.from({ length: this.area.columnCount }, (_column, c) =>
            read({ row: this.area.row + r, column: this.area.column + c }),
          ),
        );
      this.loaded = {
        address: addressOn(this.sheetName, this.area),
        formulas: cells((position) =>
          formulaOfContent(host.sheetNamed(this.sheetName).content(position)),
        ) as string[][],
        values: cells((position) => host.valueAt(this.sheetName, position)),
        numberFormat: cells((position) => host.formatAt(this.sheetName, position)) as string[][],
        valuesAsJson: cells((position) => host.jsonAt(this.sheetName, position)),
        text: cells((position) => host.textAt(this.sheetName, position)) as string[][],
      };
    });
    return this;
  }

  getCell(row: number, column: number): PreviewRange {
    return new PreviewRange(
      this.context,
      { row: this.area.row + row, column: this.area.column + column, rowCount: 1, columnCount: 1 },
      this.sheetName,
    );
  }

  getResizedRange(deltaRows: number, deltaColumns: number): PreviewRange {
    const rowCount = this.area.rowCount + deltaRows;
    const columnCount = this.area.columnCount + deltaColumns;
    if (rowCount < 1 || columnCount < 1) throw new Error("getResizedRange: the range would have no cells.");
    return new PreviewRange(this.context, { ...this.area, rowCount, columnCount }, this.sheetName);
  }

  /** ExcelApi 1.12: the table this cell's formula spills into, or a null object. */
  getSpillingToRangeOrNullObject(): PreviewRange {
    const spill = this.context.host.spillArea(this.sheetName, this.area);
    return spill
      ? new PreviewRange(this.context, spill, this.sheetName)
      : new PreviewRange(this.context, this.area, this.sheetName, true);
  }

  get formulas(): string[][] {
    return this.require("formulas").formulas;
  }

  set formulas(table: unknown[][]) {
    const formulas = table.map((row) => row.map((cell) => String(cell ?? "")));
    this.requireShape(formulas);
    this.context.queue(() => this.context.host.write(this.area, formulas, this.sheetName));
  }

  get values(): unknown[][] {
    return this.require("values").values;
  }

  set values(table: unknown[][]) {
    this.formulas = table;
  }

  get numberFormat(): string[][] {
    return this.require("numberFormat").numberFormat;
  }

  set numberFormat(table: string[][]) {
    this.requireShape(table);
    this.context.queue(() => this.context.host.setFormats(this.sheetName, this.area, table));
  }

  get valuesAsJson(): unknown[][] {
    return this.require("valuesAsJson").valuesAsJson;
  }

  /** What each cell shows, as the grid draws it (Excel's range.text). */
  get text(): string[][] {
    return this.require("text").text;
  }

  /** Range.clear(): contents (and, in the preview, the number formats PCD wrote). */
  clear(_applyTo?: string): void {
    const empty = Array.from({ length: this.area.rowCount }, () =>
      Array<string>(this.area.columnCount).fill(""),
    );
    this.context.queue(() => this.context.host.write(this.area, empty, this.sheetName));
  }

  readonly format = { autofitColumns: (): void => undefined };

  private requireShape(table: unknown[][]): void {
    if (table.length !== this.area.rowCount || table.some((row) => row.length !== this.area.columnCount)) {
      throw new Error(
        `The values are ${table.length}×${table[0]?.length ?? 0} but the range ${addressOn(this.sheetName, this.area)} is ${this.area.rowCount}×${this.area.columnCount}.`,
      );
    }
  }
}

class PreviewWorksheet {
  visibility = "Visible";

  constructor(
    private readonly context: PreviewRequestContext,
    readonly name: string,
  ) {}

  getRange(address?: string): PreviewRange {
    const model = this.context.host.sheetNamed(this.name);
    const area =
      address === undefined
        ? { row: 0, column: 0, rowCount: model.rows, columnCount: model.columns }
        : parseRange(address);
    return new PreviewRange(this.context, area, this.name);
  }

  /** Removes the sheet at the next sync. */
  delete(): void {
    this.context.queue(() => this.context.host.removeSheet(this.name));
  }

  getRangeByIndexes(row: number, column: number, rowCount: number, columnCount: number): PreviewRange {
    return new PreviewRange(this.context, { row, column, rowCount, columnCount }, this.name);
  }

  /** ExcelApi 1.4: the block of cells with content, or a null object on an empty sheet. */
  getUsedRangeOrNullObject(): PreviewRange {
    const used = this.context.host.usedArea(this.name);
    return used
      ? new PreviewRange(this.context, used, this.name)
      : new PreviewRange(this.context, { row: 0, column: 0, rowCount: 1, columnCount: 1 }, this.name, true);
  }

  activate(): void {
    this.context.queue(() => this.context.host.activate(this.name));
  }
}

class PreviewRequestContext {
  private pending: PendingOperation[] = [];
  readonly workbook: ReturnType<PreviewRequestContext["createWorkbook"]>;

  constructor(readonly host: PreviewHost) {
    this.workbook = this.createWorkbook(host);
  }

  private createWorkbook(host: PreviewHost) {
    // worksheets.load("items") fills this array at the next sync, as Excel fills its collection.
    const items: PreviewWorksheet[] = [];
    return {
      getSelectedRange: (): PreviewRange => new PreviewRange(this, host.sheet.selection()),
      worksheets: {
        // The grid shows Sheet1, the active sheet; others (PCD sources, reports) are listed under it.
        getActiveWorksheet: () => new PreviewWorksheet(this, SHEET_NAME),
        getItem: (name: string) => {
          if (!host.hasSheet(name)) throw new Error(`The preview has no sheet "${name}".`);
          return new PreviewWorksheet(this, name);
        },
        getItemOrNullObject: (name: string) =>
          Object.assign(new PreviewWorksheet(this, name), { isNullObject: !host.hasSheet(name) }),
        add: (name: string) => {
          host.addSheet(name);
          return new PreviewWorksheet(this, name);
        },
        items,
        load: (_properties?: string) => {
          this.queue(() =>
            items.splice(
              0,
              items.length,
              ...host.sheetNames().map((name) => new PreviewWorksheet(this, name)),
            ),
          );
        },
      },
      onSelectionChanged: {
        add: (handler: () => Promise<unknown>) => {
          let stop: (() => void) | null = null;
          this.queue(() => {
            stop = host.sheet.subscribe((event) => {
              if (event.type === "selection") void handler();
            });
          });
          return { context: this, remove: () => this.queue(() => stop?.()) };
        },
      },
      application: { calculate: () => this.queue(() => host.recalculate()) },
    };
  }

  queue(operation: PendingOperation): void {
    this.pending.push(operation);
  }

  async sync(): Promise<void> {
    const operations = this.pending;
    this.pending = [];
    for (const operation of operations) operation();
  }
}

export class PreviewHost {
  readonly record: HostRecord = {
    functions: new Map(),
    actions: new Map(),
    writes: [],
    calculations: 0,
    taskpaneShown: 0,
    startupBehavior: "None",
    settings: new Map(),
  };
  /** Sheets the add-in added (PCD sources, reports): values only, never evaluated. */
  private readonly otherSheets = new Map<string, SheetModel>();
  /** Number formats written through range.numberFormat ("<sheet>!<cell>"). */
  private readonly formats = new Map<string, string>();
  private readonly workbookListeners = new Set<() => void>();
  private evaluation: PreviewEvaluation | null = null;

  constructor(
    readonly sheet: SheetModel,
    private readonly onRecalculate: () => void,
  ) {}

  /** What Sheet1's cells show (index.ts, once the evaluator exists). */
  attachEvaluation(evaluation: PreviewEvaluation): void {
    this.evaluation = evaluation;
  }

  /** Calls `listener` when a sheet is added or an added sheet's cells change. */
  onWorkbookChange(listener: () => void): () => void {
    this.workbookListeners.add(listener);
    return () => this.workbookListeners.delete(listener);
  }

  write(area: RangeArea, formulas: string[][], sheetName: string = SHEET_NAME): void {
    const model = this.sheetNamed(sheetName);
    if (sheetName === SHEET_NAME) this.record.writes.push({ address: rangeAddress(area), formulas });
    formulas.forEach((row, r) =>
      row.forEach((formula, c) => {
        const position = { row: area.row + r, column: area.column + c };
        // A formula written into a cell replaces the format a frozen value kept there.
        if (formula.startsWith("=")) this.formats.delete(`${sheetName}!${cellName(position)}`);
        model.setContent(position, formula);
      }),
    );
    if (sheetName !== SHEET_NAME) this.emitWorkbookChange();
  }

  hasSheet(name: string): boolean {
    return name === SHEET_NAME || this.otherSheets.has(name);
  }

  sheetNames(): string[] {
    return [SHEET_NAME, ...this.otherSheets.keys()];
  }

  addSheet(name: string): void {
    if (this.hasSheet(name)) throw new Error(`A sheet named "${name}" already exists.`);
    // Wide enough for PCD's own sheets (the sources sheet has 9 columns, the grid's Sheet1 fewer).
    this.otherSheets.set(name, new SheetModel(this.sheet.rows, Math.max(this.sheet.columns, 26)));
    this.emitWorkbookChange();
  }

  removeSheet(name: string): void {
    if (name === SHEET_NAME) throw new Error(`The preview keeps its sheet "${SHEET_NAME}".`);
    if (!this.otherSheets.delete(name)) throw new Error(`The preview has no sheet "${name}".`);
    this.emitWorkbookChange();
  }

  sheetNamed(name: string): SheetModel {
    if (name === SHEET_NAME) return this.sheet;
    const model = this.otherSheets.get(name);
    if (!model) throw new Error(`The preview has no sheet "${name}".`);
    return model;
  }

  activate(name: string): void {
    if (!this.hasSheet(name)) throw new Error(`The preview has no sheet "${name}".`);
  }

  setFormats(sheetName: string, area: RangeArea, table: string[][]): void {
    table.forEach((row, r) =>
      row.forEach((format, c) => {
        const key = `${sheetName}!${cellName({ row: area.row + r, column: area.column + c })}`;
        if (format === "General") this.formats.delete(key);
        else this.formats.set(key, format);
      }),
    );
    this.emitWorkbookChange();
  }

  /** A number format written into a cell, if any (index.ts draws frozen dates with it). */
  writtenFormat(sheetName: string, position: CellPosition): string | undefined {
    return this.formats.get(`${sheetName}!${cellName(position)}`);
  }

  /** The cell's result as Excel's valuesAsJson gives it (formatted numbers keep their format). */
  jsonAt(sheetName: string, position: CellPosition): unknown {
    if (sheetName !== SHEET_NAME || !this.evaluation) return this.typedValue(sheetName, position);
    const shown = this.evaluation.layout().get(cellName(position));
    if (!shown) return this.typedValue(sheetName, position);
    if (shown.busy) return "#BUSY!";
    if (shown.error) return shown.error.code;
    const result = this.evaluation.result(shown.anchor);
    if (result?.kind !== "value") return this.typedValue(sheetName, position);
    if (!Array.isArray(result.value)) return result.value;
    const anchor = parseRange(shown.anchor);
    const row: unknown = (result.value as unknown[])[position.row - anchor.row];
    return Array.isArray(row) ? (row[position.column - anchor.column] ?? "") : "";
  }

  /** What range.values reports: errors as their code, formatted numbers as their number. */
  valueAt(sheetName: string, position: CellPosition): unknown {
    const value = this.jsonAt(sheetName, position);
    return isFormattedNumber(value) ? value.basicValue : (value ?? "");
  }

  /** What range.text reports: the cell as the grid draws it. */
  textAt(sheetName: string, position: CellPosition): string {
    const shown = sheetName === SHEET_NAME ? this.evaluation?.layout().get(cellName(position)) : undefined;
    return shown ? shown.text : displayScalar(this.jsonAt(sheetName, position));
  }

  formatAt(sheetName: string, position: CellPosition): string {
    return this.writtenFormat(sheetName, position) ?? "General";
  }

  /** The spilled table's area when the cell is a table's anchor (not blocked by #SPILL!). */
  spillArea(sheetName: string, area: RangeArea): RangeArea | null {
    if (sheetName !== SHEET_NAME || !this.evaluation) return null;
    const address = cellName(area);
    const shown = this.evaluation.layout().get(address);
    const result = this.evaluation.result(address);
    if (!shown || shown.anchor !== address || shown.error || result?.kind !== "value") return null;
    if (!Array.isArray(result.value)) return null;
    const table = result.value as unknown[][];
    const columnCount = Math.max(1, ...table.map((row) => (Array.isArray(row) ? row.length : 1)));
    return { row: area.row, column: area.column, rowCount: Math.max(1, table.length), columnCount };
  }

  /** The smallest block holding every filled cell, or null on an empty sheet. */
  usedArea(sheetName: string): RangeArea | null {
    const filled = this.sheetNamed(sheetName)
      .filledCells()
      .map((address) => parseRange(address));
    if (filled.length === 0) return null;
    const row = Math.min(...filled.map((cell) => cell.row));
    const column = Math.min(...filled.map((cell) => cell.column));
    return {
      row,
      column,
      rowCount: Math.max(...filled.map((cell) => cell.row)) - row + 1,
      columnCount: Math.max(...filled.map((cell) => cell.column)) - column + 1,
    };
  }

  private typedValue(sheetName: string, position: CellPosition): unknown {
    const content = this.sheetNamed(sheetName).content(position).trim();
    // Sheets other than Sheet1 are not evaluated: a formula written there (PCD writes none)
    // shows as an error, so a test sees it was taken as a formula and not as text.
    return content.startsWith("=") ? "#NAME?" : typedContentValue(content);
  }

  private emitWorkbookChange(): void {
    for (const listener of [...this.workbookListeners]) listener();
  }

  recalculate(): void {
    this.record.calculations += 1;
    this.onRecalculate();
  }

  /** Defines Office, Excel, CustomFunctions and OfficeRuntime on the page. */
  install(scope: Record<string, unknown>): void {
    const ready = Promise.resolve({ host: "Excel", platform: "OfficeOnline" });
    scope["Office"] = {
      HostType: { Excel: "Excel" },
      PlatformType: { OfficeOnline: "OfficeOnline" },
      onReady: (callback?: (info: { host: string; platform: string }) => void) =>
        ready.then((info) => {
          callback?.(info);
          return info;
        }),
      context: {
        requirements: { isSetSupported: isSupported },
        // The dialog API opens a popup of the browser (mock-dialog.ts).
        ui: { displayDialogAsync: displayPreviewDialog },
        displayLanguage: "en-US",
        contentLanguage: "en-US",
        // Document settings: kept in memory and "saved" at once (the workbook file in Excel).
        document: { settings: this.createSettings() },
      },
      AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
      EventType: DIALOG_EVENT_TYPES,
      actions: {
        associate: (id: string, action: (event: { completed(): void }) => unknown) =>
          this.record.actions.set(id, action),
      },
      addin: {
        showAsTaskpane: async () => {
          this.record.taskpaneShown += 1;
        },
        hide: async () => undefined,
        setStartupBehavior: async (behavior: "Load" | "None") => {
          this.record.startupBehavior = behavior;
        },
        getStartupBehavior: async () => this.record.startupBehavior,
      },
      StartupBehavior: { load: "Load", none: "None" },
    };
    scope["Excel"] = {
      // Excel.run(batch), or Excel.run(context, batch) to go on with an earlier context.
      run: async <T>(
        first: PreviewRequestContext | ((context: PreviewRequestContext) => Promise<T>),
        second?: (context: PreviewRequestContext) => Promise<T>,
      ): Promise<T> => {
        const context = first instanceof PreviewRequestContext ? first : new PreviewRequestContext(this);
        const batch = first instanceof PreviewRequestContext ? second : first;
        if (!batch) throw new Error("Excel.run needs a batch function.");
        const result = await batch(context);
        await context.sync();
        return result;
      },
      CalculationType: { recalculate: "Recalculate", full: "Full", fullRebuild: "FullRebuild" },
      SheetVisibility: { visible: "Visible", hidden: "Hidden", veryHidden: "VeryHidden" },
      ClearApplyTo: { all: "All", formats: "Formats", contents: "Contents" },
    };
    scope["CustomFunctions"] = {
      associate: (id: string | Record<string, CustomFunction>, fn?: CustomFunction) => {
        if (typeof id === "string") {
          if (fn) this.record.functions.set(id.toUpperCase(), fn);
        } else {
          for (const [name, each] of Object.entries(id)) this.record.functions.set(name.toUpperCase(), each);
        }
      },
      Error: ShimCustomFunctionsError,
      ErrorCode: SHIM_ERROR_CODES,
    };
    scope["OfficeRuntime"] = {
      // In-memory only: the add-in keeps its data in IndexedDB; this is never the password's place.
      storage: createMemoryStorage(),
    };
  }

  private createSettings() {
    const pending = new Map<string, unknown>();
    const saved = this.record.settings;
    return {
      get: (name: string): unknown => (pending.has(name) ? pending.get(name) : (saved.get(name) ?? null)),
      set: (name: string, value: unknown): void => {
        // Office keeps settings as JSON: what is read back is a copy.
        pending.set(name, JSON.parse(JSON.stringify(value)) as unknown);
      },
      remove: (name: string): void => {
        pending.set(name, undefined);
      },
      saveAsync: (callback?: (result: { status: string }) => void): void => {
        for (const [name, value] of pending) {
          if (value === undefined) saved.delete(name);
          else saved.set(name, value);
        }
        pending.clear();
        callback?.({ status: "succeeded" });
      },
    };
  }

  /** Runs a ribbon action the way Office does, resolving when it calls event.completed(). */
  runAction(id: string): Promise<void> {
    const action = this.record.actions.get(id);
    if (!action) return Promise.reject(new Error(`No ribbon action "${id}" is associated.`));
    return new Promise<void>((resolve) => {
      void action({ completed: () => resolve() });
    });
  }
}

function createMemoryStorage(): Record<string, (...args: never[]) => Promise<unknown>> {
  const items = new Map<string, string>();
  return {
    getItem: async (key: string) => items.get(key) ?? null,
    setItem: async (key: string, value: string) => void items.set(key, value),
    removeItem: async (key: string) => void items.delete(key),
  };
}
