// The preview's worksheet on screen: a ribbon strip, a name box and formula bar, and a
// small grid. Typing =PCD.VALUES(...) into a cell runs the real registered functions;
// clicking a cell selects it for the task pane's Insert. Every text goes in through
// textContent, never as markup.
import { cellName, columnName, parseCell, rangeAddress, type CellPosition } from "./a1";
import type { DisplayCell } from "./sheet-layout";
import type { SheetModel } from "./sheet-model";

export interface GridOptions {
  sheet: SheetModel;
  layout(): Map<string, DisplayCell>;
  /** Subscribes to anything that changes what cells show. */
  onResultsChange(listener: () => void): void;
  /** Subscribes to changes of the workbook (sheets added or removed, cells written). */
  onWorkbookChange(listener: () => void): void;
  runAction(id: string): Promise<void>;
  /** Sheets other than Sheet1 (PCD sources, reports), shown read-only under the grid. */
  otherSheets(): Array<{ name: string; rows: string[][] }>;
}

/** The ribbon's Freeze menu (manifest.xml): its items and the actions they run. */
const FREEZE_MENU: ReadonlyArray<[string, string]> = [
  ["freezeSelection", "Freeze selection"],
  ["freezeSheet", "Freeze sheet"],
  ["freezeWorkbook", "Freeze workbook"],
  ["restoreAll", "Restore all"],
  ["restoreSelection", "Restore selection"],
];

/**
 * Rows in the page at first, more than a window shows. The grid adds the sheet's other rows
 * (sheet.rows) as content or the selection reaches down, or the sheet is scrolled to its end:
 * every row in the page is laid out at each change, and a preview page holding all 300 rows
 * costs about a third more to load than one holding 40 (measured in Chromium).
 */
const ROWS_AT_START = 40;
/** Rows kept below the lowest content or selection, and added by a scroll to the end. */
const ROWS_AHEAD = 20;
const SCROLL_MARGIN_PX = 40;

/** One past the lowest row a layout shows something in (0 for an empty one), once per layout. */
const lowestRows = new WeakMap<Map<string, DisplayCell>, number>();
function lowestRow(layout: Map<string, DisplayCell>): number {
  let lowest = lowestRows.get(layout);
  if (lowest === undefined) {
    lowest = 0;
    for (const address of layout.keys()) lowest = Math.max(lowest, parseCell(address).row + 1);
    lowestRows.set(layout, lowest);
  }
  return lowest;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function mountGrid(container: HTMLElement, options: GridOptions): void {
  const { sheet } = options;
  const ribbon = element("div", { class: "ribbon", role: "toolbar", "aria-label": "Ribbon (PCD tab)" });
  const seriesButton = element("button", { type: "button" }, "Series");
  const refreshButton = element("button", { type: "button", "data-testid": "ribbon-refresh" }, "Refresh all");
  const ribbonStatus = element("span", { class: "ribbon-status", role: "status" });
  const freezeMenu = element("select", { "aria-label": "Freeze", "data-testid": "ribbon-freeze" });
  freezeMenu.append(element("option", { value: "" }, "Freeze ▾"));
  for (const [id, label] of FREEZE_MENU) freezeMenu.append(element("option", { value: id }, label));
  ribbon.append(element("strong", {}, "PCD"), seriesButton, refreshButton, freezeMenu, ribbonStatus);

  const bar = element("div", { class: "formula-bar" });
  const nameBox = element("output", {
    class: "name-box",
    "aria-label": "Selected cell",
    "data-testid": "name-box",
  });
  const input = element("input", {
    type: "text",
    class: "formula-input",
    "aria-label": "Formula",
    spellcheck: "false",
    autocomplete: "off",
  });
  // The selected cell's message sits right under the formula bar, where the eye is.
  const message = element("p", {
    class: "cell-message",
    role: "status",
    "aria-live": "polite",
    "data-testid": "cell-message",
  });
  bar.append(nameBox, input);

  const table = element("table", {
    class: "grid",
    tabindex: "0",
    "aria-label": "Sheet1: arrow keys move, type or Enter to edit",
  });
  const head = element("tr");
  head.append(element("th", { scope: "col" }));
  for (let c = 0; c < sheet.columns; c += 1) head.append(element("th", { scope: "col" }, columnName(c)));
  const thead = element("thead");
  thead.append(head);
  const tbody = element("tbody");
  const cells = new Map<string, { cell: HTMLTableCellElement; row: number; column: number }>();
  /** Puts the sheet's rows up to `count` in the page (never more than the sheet has). */
  const showRows = (count: number): void => {
    const target = Math.min(sheet.rows, count);
    for (let r = tbody.rows.length; r < target; r += 1) {
      const row = element("tr");
      row.append(element("th", { scope: "row" }, String(r + 1)));
      for (let c = 0; c < sheet.columns; c += 1) {
        const address = cellName({ row: r, column: c });
        const cell = element("td", { "data-address": address });
        cells.set(address, { cell, row: r, column: c });
        row.append(cell);
      }
      tbody.append(row);
    }
  };
  showRows(ROWS_AT_START);
  table.append(thead, tbody);
  const others = element("div", { class: "other-sheets", "data-testid": "other-sheets" });
  container.append(ribbon, bar, message, table, others);
  // Scrolled to the sheet's end: more rows, as Excel's sheet goes on.
  container.addEventListener("scroll", () => {
    if (container.scrollTop + container.clientHeight >= container.scrollHeight - SCROLL_MARGIN_PX) {
      showRows(tbody.rows.length + ROWS_AHEAD);
    }
  });

  let anchor: CellPosition = { row: 0, column: 0 };

  // Every result and workbook change redraws, and a streaming recalculation makes hundreds:
  // only what changed is written, because a write to any of its 2,400 cells makes the browser
  // lay the table out again.
  const draw = (): void => {
    const shown = options.layout();
    const selection = sheet.selection();
    showRows(Math.max(lowestRow(shown), selection.row + selection.rowCount) + ROWS_AHEAD);
    for (const [address, { cell, row, column }] of cells) {
      const display = shown.get(address);
      const text = display?.text ?? "";
      if (cell.textContent !== text) cell.textContent = text;
      const title = display?.error ? `${display.error.code} ${display.error.message}` : (display?.card ?? "");
      if (cell.title !== title) cell.title = title;
      cell.classList.toggle("card", display?.card !== undefined);
      cell.classList.toggle("error", display?.error !== null && display?.error !== undefined);
      cell.classList.toggle("spilled", display !== undefined && display.anchor !== address);
      const inside =
        row >= selection.row &&
        row < selection.row + selection.rowCount &&
        column >= selection.column &&
        column < selection.column + selection.columnCount;
      cell.classList.toggle("selected", inside);
      cell.classList.toggle("active", row === selection.row && column === selection.column);
    }
    const active = cellName(selection);
    const name = rangeAddress(selection).replace(/^Sheet1!/, "");
    if (nameBox.textContent !== name) nameBox.textContent = name;
    if (document.activeElement !== input) {
      const content = sheet.content(selection);
      if (input.value !== content) input.value = content;
    }
    const display = shown.get(active);
    const said = display?.error ? `${active}: ${display.error.code} ${display.error.message}` : "";
    if (message.textContent !== said) message.textContent = said;
  };

  // The sheets PCD added, each as a small read-only table (the preview shows one sheet's grid),
  // built again when the workbook changes (they hold typed content only, no results).
  const drawOtherSheets = (): void => {
    others.replaceChildren();
    for (const { name, rows } of options.otherSheets()) {
      const section = element("section", { "aria-label": name, "data-sheet": name });
      section.append(element("h2", {}, name));
      const sheetTable = element("table", { class: "other-sheet" });
      for (const row of rows) {
        const line = element("tr");
        // A note alone in its row runs across the row, as Excel lets long text overflow.
        const note = row.length > 1 && row.slice(1).every((text) => text === "");
        if (note) line.append(element("td", { colspan: String(row.length) }, row[0] ?? ""));
        else for (const text of row) line.append(element("td", {}, text));
        sheetTable.append(line);
      }
      section.append(sheetTable);
      others.append(section);
    }
  };

  const selectCell = (position: CellPosition, extend = false): void => {
    const row = Math.max(0, Math.min(sheet.rows - 1, position.row));
    const column = Math.max(0, Math.min(sheet.columns - 1, position.column));
    if (!extend) anchor = { row, column };
    sheet.select({
      row: Math.min(anchor.row, row),
      column: Math.min(anchor.column, column),
      rowCount: Math.abs(row - anchor.row) + 1,
      columnCount: Math.abs(column - anchor.column) + 1,
    });
  };

  const commit = (moveDown: boolean): void => {
    const selection = sheet.selection();
    sheet.setContent(selection, input.value.trim());
    if (moveDown) selectCell({ row: selection.row + 1, column: selection.column });
    table.focus();
  };

  tbody.addEventListener("click", (event) => {
    const target = (event.target as HTMLElement).closest("td");
    const address = target?.getAttribute("data-address");
    if (!address) return;
    selectCell(parseCell(address), event.shiftKey);
    table.focus();
  });

  table.addEventListener("keydown", (event) => {
    const selection = sheet.selection();
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      const from = event.shiftKey
        ? {
            row: selection.row + (selection.row < anchor.row ? 0 : selection.rowCount - 1),
            column: selection.column + (selection.column < anchor.column ? 0 : selection.columnCount - 1),
          }
        : selection;
      selectCell({ row: from.row + move[0], column: from.column + move[1] }, event.shiftKey);
    } else if (event.key === "Enter" || event.key === "F2") {
      event.preventDefault();
      input.focus();
    } else if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      sheet.setContent(selection, "");
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      input.value = event.key;
      input.focus();
    }
  });

  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      commit(true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      input.value = sheet.content(sheet.selection());
      table.focus();
    }
  });

  seriesButton.addEventListener("click", () => {
    document.getElementById("root")?.querySelector<HTMLElement>("[role=tab]")?.focus();
  });
  const run = (id: string, busy: string): void => {
    ribbonStatus.textContent = busy;
    options.runAction(id).then(
      () => {
        ribbonStatus.textContent = "";
      },
      (error: unknown) => {
        ribbonStatus.textContent = error instanceof Error ? error.message : String(error);
      },
    );
  };
  refreshButton.addEventListener("click", () => run("refreshAll", "Refreshing…"));
  freezeMenu.addEventListener("change", () => {
    const id = freezeMenu.value;
    freezeMenu.value = "";
    if (id) run(id, "Working…");
  });

  sheet.subscribe(draw);
  options.onResultsChange(draw);
  options.onWorkbookChange(drawOtherSheets);
  draw();
  drawOtherSheets();
}
