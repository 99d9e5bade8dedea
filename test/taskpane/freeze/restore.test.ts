import { freeze } from "../../../src/taskpane/freeze/freeze";
import { FROZEN_SETTING, parseFrozenRecord } from "../../../src/taskpane/freeze/frozen-record";
import { restore } from "../../../src/taskpane/freeze/restore";
import { SOURCES_SHEET } from "../../../src/taskpane/freeze/sources-sheet";
import { MemoryWorkbookHost } from "./memory-workbook-host";

async function frozenWorkbook(): Promise<MemoryWorkbookHost> {
  const host = new MemoryWorkbookHost();
  host.setFormula("Sheet1!B2", '=PCD.VALUE("1-1-1")', [[42.5]]);
  host.setFormula("Sheet1!D2", '=PCD.VALUES("2-2-2")', [
    [46023, 10],
    [46054, 11],
  ]);
  host.setFormula("Sheet1!G1", '=PCD.VALUE("3-3-3")', [["Aluminium"]]);
  const outcome = await freeze({ host, scope: "workbook", provenance: async () => [], now: () => 0 });
  expect(outcome.status).toBe("frozen");
  return host;
}

describe("restore", () => {
  test("puts every frozen formula back, empties the spill range first and clears the record", async () => {
    const host = await frozenWorkbook();
    const outcome = await restore(host, "all");
    expect(outcome).toEqual({
      restored: ["Sheet1!G1", "Sheet1!B2", "Sheet1!D2:E3"],
      changed: [],
      remaining: 0,
    });
    expect(host.cell("Sheet1!B2")?.formula).toBe('=PCD.VALUE("1-1-1")');
    expect(host.cell("Sheet1!D2")?.formula).toBe('=PCD.VALUES("2-2-2")');
    expect(host.cell("Sheet1!E3")).toBeUndefined();
    expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells).toEqual([]);
    expect(String(host.sheets.get(SOURCES_SHEET)?.at(-1)?.[0])).toMatch(/No cells are frozen/);
  });

  test("restores only the frozen cells the selection touches", async () => {
    const host = await frozenWorkbook();
    host.selection = "Sheet1!E3";
    const outcome = await restore(host, "selection");
    expect(outcome).toEqual({ restored: ["Sheet1!D2:E3"], changed: [], remaining: 2 });
    expect(host.cell("Sheet1!B2")?.formula).toBe("");
    expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells.map((cell) => cell.address)).toEqual([
      "Sheet1!G1",
      "Sheet1!B2",
    ]);
  });

  test.each<
    [
      string,
      (host: MemoryWorkbookHost) => void,
      { range: string; cell: string; frozen: unknown; now: unknown },
    ]
  >([
    [
      "a value typed over a frozen cell",
      (host) => host.type("Sheet1!B2", 40),
      { range: "Sheet1!B2", cell: "Sheet1!B2", frozen: 42.5, now: 40 },
    ],
    [
      "a value changed inside a frozen table",
      (host) => host.type("Sheet1!E3", 12),
      { range: "Sheet1!D2:E3", cell: "Sheet1!E3", frozen: 11, now: 12 },
    ],
    [
      "a cleared cell inside a frozen table",
      (host) => host.cells.delete("Sheet1!D3"),
      { range: "Sheet1!D2:E3", cell: "Sheet1!D3", frozen: 46054, now: "" },
    ],
    [
      "a formula typed over a frozen cell",
      (host) => host.setFormula("Sheet1!G1", "=1+1", [[2]]),
      { range: "Sheet1!G1", cell: "Sheet1!G1", frozen: "Aluminium", now: "=1+1" },
    ],
  ])("reports %s and leaves it (and its record) alone", async (_name, edit, changed) => {
    const host = await frozenWorkbook();
    edit(host);
    const before = JSON.stringify(
      [...host.cells].filter(([address]) => address.startsWith(changed.range.slice(0, 8))),
    );
    const outcome = await restore(host, "all");
    expect(outcome.changed).toEqual([changed]);
    expect(outcome.restored).not.toContain(changed.range);
    expect(outcome.restored).toHaveLength(2);
    expect(outcome.remaining).toBe(1);
    expect(
      JSON.stringify([...host.cells].filter(([address]) => address.startsWith(changed.range.slice(0, 8)))),
    ).toBe(before);
    expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells.map((cell) => cell.range)).toEqual([
      changed.range,
    ]);
  });

  test("a number typed back as its text counts as unchanged", async () => {
    const host = await frozenWorkbook();
    host.type("Sheet1!B2", "42.5");
    expect((await restore(host, "all")).changed).toEqual([]);
  });

  test("with nothing frozen, restores nothing and writes nothing", async () => {
    const host = new MemoryWorkbookHost();
    expect(await restore(host, "all")).toEqual({ restored: [], changed: [], remaining: 0 });
    expect(host.settingWrites).toBe(0);
  });
});
