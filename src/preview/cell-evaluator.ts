// Evaluates the preview sheet's cells the way Excel runs custom functions: a cell with
// =PCD.NAME(...) calls the registered function with its arguments (omitted ones as null)
// and a streaming invocation; every setResult updates the cell, editing the cell cancels
// the old invocation. Other content is a typed value.
import { parseFormula, type FormulaArgument } from "../headless/formula";
import { computeArithmeticArguments } from "./arithmetic-arguments";
import { parseCell, rangeAddress } from "./a1";
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
    const content = this.sheet.content(parseCell(address)).trim();
    if (content === "") {
      this.results.delete(address);
      this.emit(address);
    } else if (!content.startsWith("=")) {
      this.set(address, { kind: "value", value: typedContentValue(content) });
    } else {
      this.call(address, content);
    }
  }

  recalculateAll(): void {
    for (const address of this.sheet.filledCells()) this.evaluate(address);
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
        message: `The preview evaluates PCD functions only: ${parsed.message}`,
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
