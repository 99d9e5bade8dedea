// Evaluates the preview sheet's cells the way Excel runs custom functions: a cell with
// =PCD.NAME(...) calls the registered function with its arguments (omitted ones as null)
// and a streaming invocation; every setResult updates the cell, editing the cell cancels
// the old invocation. =A1.Latest reads a field of the card in A1 (./field-reference.ts) and
// follows that cell's every result. Other content is a typed value.
import { parseFormula, type FormulaArgument } from "../headless/formula";
import { computeArithmeticArguments } from "./arithmetic-arguments";
import { parseCell, rangeAddress } from "./a1";
import { fieldResult, parseFieldReference, type FieldReference } from "./field-reference";
import { ShimCustomFunctionsError } from "../headless/custom-functions-shim";
import { typedContentValue, type SheetModel } from "./sheet-model";

export type CellResult =
  { kind: "busy" } | { kind: "value"; value: unknown } | { kind: "error"; code: string; message: string };

export type CustomFunction = (...args: unknown[]) => unknown;

export interface PreviewInvocation {
  address: string;
  functionName: string;
  setResult(value: unknown): void;
  onCanceled?: () => void;
}

interface Running {
  invocation: PreviewInvocation;
  cancelled: boolean;
}

export class CellEvaluator {
  private readonly results = new Map<string, CellResult>();
  private readonly running = new Map<string, Running>();
  private readonly listeners = new Set<(address: string) => void>();
  /** Field references: the cell each one reads, and the cells reading each cell. */
  private readonly reads = new Map<string, string>();
  private readonly readers = new Map<string, Set<string>>();
  /** Cells whose readers are being updated: a circle of references stops there. */
  private readonly updating = new Set<string>();
  /** Every result each cell was set to, oldest first (for tests). */
  readonly history = new Map<string, CellResult[]>();

  constructor(
    private readonly sheet: SheetModel,
    private readonly lookup: (name: string) => CustomFunction | undefined,
  ) {}

  onResult(listener: (address: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  result(address: string): CellResult | undefined {
    return this.results.get(address);
  }

  /** Runs a cell again from its content (after an edit or a recalculation request). */
  evaluate(address: string): void {
    this.cancel(address);
    this.stopReading(address);
    const content = this.sheet.content(parseCell(address)).trim();
    if (content === "") {
      this.results.delete(address);
      this.emit(address);
      this.updateReaders(address);
    } else if (!content.startsWith("=")) {
      this.set(address, { kind: "value", value: typedContentValue(content) });
    } else {
      const reference = parseFieldReference(content, this.sheet);
      if (reference === null) this.call(address, content);
      else if ("error" in reference) this.set(address, reference.error);
      else this.readField(address, reference);
    }
  }

  recalculateAll(): void {
    for (const address of this.sheet.filledCells()) this.evaluate(address);
  }

  private readField(address: string, reference: FieldReference): void {
    if (reference.cell === address) {
      this.set(address, {
        kind: "error",
        code: "#REF!",
        message: `${address} cannot read a field of itself: put the card in another cell.`,
      });
      return;
    }
    this.reads.set(address, reference.cell);
    const readers = this.readers.get(reference.cell) ?? new Set<string>();
    readers.add(address);
    this.readers.set(reference.cell, readers);
    this.set(address, fieldResult(reference, this.results.get(reference.cell)));
  }

  private stopReading(address: string): void {
    const read = this.reads.get(address);
    if (read === undefined) return;
    this.reads.delete(address);
    this.readers.get(read)?.delete(address);
  }

  /** The cells reading a field of `address` follow its new result. */
  private updateReaders(address: string): void {
    const readers = this.readers.get(address);
    if (!readers || readers.size === 0 || this.updating.has(address)) return;
    this.updating.add(address);
    try {
      for (const reader of [...readers]) this.evaluate(reader);
    } finally {
      this.updating.delete(address);
    }
  }

  private call(address: string, formula: string): void {
    // Like Excel: an unquoted code is arithmetic, and the function explains what arrived.
    const first = parseFormula(formula);
    const computed = first instanceof Error ? computeArithmeticArguments(formula) : null;
    const parsed = computed === null ? first : parseFormula(computed);
    if (parsed instanceof Error) {
      this.set(address, {
        kind: "error",
        code: "#NAME?",
        message: `The preview evaluates PCD functions and card fields (=A1.Latest) only: ${parsed.message}`,
      });
      return;
    }
    const fn = this.lookup(parsed.name);
    if (!fn) {
      this.set(address, {
        kind: "error",
        code: "#NAME?",
        message: `PCD.${parsed.name} is not registered (is the functions bundle loaded?).`,
      });
      return;
    }
    // The declared parameters include the invocation: Excel passes null for omitted ones.
    const parameterCount = Math.max(0, fn.length - 1);
    if (parsed.args.length > parameterCount) {
      this.set(address, {
        kind: "error",
        code: "#VALUE!",
        message: `PCD.${parsed.name} takes at most ${parameterCount} arguments, got ${parsed.args.length}.`,
      });
      return;
    }
    const args: Array<FormulaArgument> = [...parsed.args];
    while (args.length < parameterCount) args.push(null);
    const entry: Running = {
      cancelled: false,
      invocation: {
        address: rangeAddress({ ...parseCell(address), rowCount: 1, columnCount: 1 }),
        functionName: parsed.name,
        setResult: (value: unknown) => {
          if (!entry.cancelled) this.set(address, toResult(value));
        },
      },
    };
    this.running.set(address, entry);
    this.set(address, { kind: "busy" });
    try {
      const returned = fn(...args, entry.invocation);
      if (returned !== undefined) {
        void Promise.resolve(returned).then(
          (value) => entry.invocation.setResult(value),
          (error: unknown) =>
            entry.invocation.setResult(new ShimCustomFunctionsError("#VALUE!", String(error))),
        );
      }
    } catch (error) {
      this.set(address, {
        kind: "error",
        code: "#VALUE!",
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private cancel(address: string): void {
    const entry = this.running.get(address);
    if (!entry) return;
    entry.cancelled = true;
    this.running.delete(address);
    entry.invocation.onCanceled?.();
  }

  private set(address: string, result: CellResult): void {
    this.results.set(address, result);
    const list = this.history.get(address) ?? [];
    list.push(result);
    this.history.set(address, list);
    this.emit(address);
    this.updateReaders(address);
  }

  private emit(address: string): void {
    for (const listener of [...this.listeners]) listener(address);
  }
}

export function toResult(value: unknown): CellResult {
  if (value instanceof ShimCustomFunctionsError) {
    return { kind: "error", code: value.code, message: value.message ?? "" };
  }
  return { kind: "value", value };
}
