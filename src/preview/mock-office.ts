// A mock Office host for the browser: Excel cannot run here, so this page provides the
// parts of Office, Excel, CustomFunctions and OfficeRuntime the add-in uses, then the real
// bundles load on top of it (this module must run before them: it is the page's first
// entry). Everything the add-in does through these APIs is recorded for the preview's
// test API (window.__pcdPreview).
import { parseRange, rangeAddress, type RangeArea } from "./a1";
import type { CustomFunction } from "./cell-evaluator";
import { SHIM_ERROR_CODES, ShimCustomFunctionsError } from "../headless/custom-functions-shim";
import type { SheetModel } from "./sheet-model";

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
  private loadedAddress: string | undefined;
  private loadedFormulas: string[][] | undefined;

  constructor(
    private readonly context: PreviewRequestContext,
    readonly area: RangeArea,
  ) {}

  get address(): string {
    if (this.loadedAddress === undefined) {
      throw new Error(
        'The property "address" is not loaded: call range.load("address") and context.sync() first.',
      );
    }
    return this.loadedAddress;
  }

  load(_properties?: string | string[]): this {
    this.context.queue(() => {
      this.loadedAddress = rangeAddress(this.area);
      this.loadedFormulas = Array.from({ length: this.area.rowCount }, (_row, r) =>
        Array.from({ length: this.area.columnCount }, (_column, c) =>
          this.context.host.sheet.content({ row: this.area.row + r, column: this.area.column + c }),
        ),
      );
    });
    return this;
  }

  getCell(row: number, column: number): PreviewRange {
    return new PreviewRange(this.context, {
      row: this.area.row + row,
      column: this.area.column + column,
      rowCount: 1,
      columnCount: 1,
    });
  }

  getResizedRange(deltaRows: number, deltaColumns: number): PreviewRange {
    const rowCount = this.area.rowCount + deltaRows;
    const columnCount = this.area.columnCount + deltaColumns;
    if (rowCount < 1 || columnCount < 1) throw new Error("getResizedRange: the range would have no cells.");
    return new PreviewRange(this.context, { ...this.area, rowCount, columnCount });
  }

  get formulas(): string[][] {
    if (this.loadedFormulas === undefined) {
      throw new Error(
        'The property "formulas" is not loaded: call range.load("formulas") and context.sync() first.',
      );
    }
    return this.loadedFormulas;
  }

  set formulas(table: unknown[][]) {
    const formulas = table.map((row) => row.map((cell) => String(cell ?? "")));
    if (
      formulas.length !== this.area.rowCount ||
      formulas.some((row) => row.length !== this.area.columnCount)
    ) {
      throw new Error(
        `The formulas are ${formulas.length}×${formulas[0]?.length ?? 0} but the range ${rangeAddress(this.area)} is ${this.area.rowCount}×${this.area.columnCount}.`,
      );
    }
    this.context.queue(() => this.context.host.write(this.area, formulas));
  }

  set values(table: unknown[][]) {
    this.formulas = table;
  }
}

class PreviewRequestContext {
  private pending: PendingOperation[] = [];
  readonly workbook;

  constructor(readonly host: PreviewHost) {
    this.workbook = {
      getSelectedRange: (): PreviewRange => new PreviewRange(this, host.sheet.selection()),
      worksheets: {
        getActiveWorksheet: () => ({
          getRange: (address: string) => new PreviewRange(this, parseRange(address)),
        }),
        // The preview has one sheet, Sheet1.
        getItem: (name: string) => {
          if (name !== "Sheet1") throw new Error(`The preview has no sheet "${name}".`);
          return { getRange: (address: string) => new PreviewRange(this, parseRange(address)) };
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
  };

  constructor(
    readonly sheet: SheetModel,
    private readonly onRecalculate: () => void,
  ) {}

  write(area: RangeArea, formulas: string[][]): void {
    this.record.writes.push({ address: rangeAddress(area), formulas });
    formulas.forEach((row, r) =>
      row.forEach((formula, c) =>
        this.sheet.setContent({ row: area.row + r, column: area.column + c }, formula),
      ),
    );
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
        displayLanguage: "en-US",
        contentLanguage: "en-US",
      },
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
