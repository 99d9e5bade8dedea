// The preview's worksheet: what each cell holds (a formula or a typed value), which
// cells are selected, and who wants to know when either changes. The mock Excel API
// writes here and the grid draws from here.
import { cellName, type CellPosition, type RangeArea } from "./a1";

/**
 * What a cell holding typed content (not a formula) shows, read as Excel reads input: a
 * leading apostrophe makes the rest text (and is not shown), a number is a number, the rest
 * is text.
 */
export function typedContentValue(content: string): string | number {
  if (content.startsWith("'")) return content.slice(1);
  const number = Number(content);
  return content !== "" && Number.isFinite(number) ? number : content;
}

/** What range.formulas reports for a cell: its formula or typed content, without the text prefix. */
export function formulaOfContent(content: string): string {
  return content.startsWith("'") ? content.slice(1) : content;
}

export type SheetEvent = { type: "cell"; address: string } | { type: "selection" };

export class SheetModel {
  readonly rows: number;
  readonly columns: number;
  private readonly contents = new Map<string, string>();
  private selected: RangeArea = { row: 0, column: 0, rowCount: 1, columnCount: 1 };
  private readonly listeners = new Set<(event: SheetEvent) => void>();

  constructor(rows: number, columns: number) {
    this.rows = rows;
    this.columns = columns;
  }

  subscribe(listener: (event: SheetEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What the user typed into a cell ("" when empty). */
  content(position: CellPosition): string {
    return this.contents.get(cellName(position)) ?? "";
  }

  setContent(position: CellPosition, text: string): void {
    this.requireInside(position);
    const address = cellName(position);
    if (text === "") this.contents.delete(address);
    else this.contents.set(address, text);
    this.emit({ type: "cell", address });
  }

  filledCells(): string[] {
    return [...this.contents.keys()];
  }

  selection(): RangeArea {
    return { ...this.selected };
  }

  select(area: RangeArea): void {
    this.requireInside(area);
    this.requireInside({ row: area.row + area.rowCount - 1, column: area.column + area.columnCount - 1 });
    this.selected = { ...area };
    this.emit({ type: "selection" });
  }

  private requireInside(position: CellPosition): void {
    if (
      position.row < 0 ||
      position.column < 0 ||
      position.row >= this.rows ||
      position.column >= this.columns
    ) {
      throw new Error(
        `${cellName(position)} is outside the preview sheet (${this.rows} rows, ${this.columns} columns).`,
      );
    }
  }

  private emit(event: SheetEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
