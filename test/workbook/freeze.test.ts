import { SEAL } from "./test-seal";
import { describeRefused, freeze } from "../../src/workbook/freeze";
import { FROZEN_SETTING, parseFrozenRecord, type SeriesProvenance } from "../../src/workbook/frozen-record";
import { SOURCES_HEADER, SOURCES_SHEET } from "../../src/workbook/sources-sheet";
import { restore } from "../../src/workbook/restore";
import { MemoryWorkbookHost } from "./memory-workbook-host";

const NOW = Date.UTC(2026, 10, 20, 9, 30);

function series(code: string): SeriesProvenance {
  return {
    code,
    currency: "EUR",
    unit: "MWh",
    releaseMonth: "2026-11",
    latestMonth: "2026-10",
    retrievedAt: "2026-11-19T08:00:00.000Z",
    description: `Assessment ${code}, Natural gas, Germany`,
    owner: "energy_price (Germany)",
  };
}

/** Provenance by the code in the formula's first quotes. */
async function provenance(formula: string): Promise<SeriesProvenance[]> {
  const code = /"([^"]*)"/.exec(formula)?.[1] ?? "?";
  return [series(code)];
}

function workbook(): MemoryWorkbookHost {
  const host = new MemoryWorkbookHost();
  host.setFormula("Sheet1!B2", '=PCD.VALUE("1-1-1","2026-10")', [[42.5]]);
  host.setFormula(
    "Sheet1!D2",
    '=PCD.VALUES("2-2-2")',
    [
      [46023, 10],
      [46054, 11],
    ],
    "yyyy-mm",
  );
  host.setFormula("Sheet1!A9", "=SUM(B2:B3)", [[42.5]]);
  host.setFormula("Other!A1", '=PCD.VALUE("3-3-3")', [[7]]);
  return host;
}

describe("freeze", () => {
  test("replaces the sheet's PCD formulas, spilled tables whole, and leaves other formulas alone", async () => {
    const host = workbook();
    const outcome = await freeze({ seal: SEAL, host, scope: "sheet", provenance, now: () => NOW });
    expect(outcome.status).toBe("frozen");
    expect(host.cell("Sheet1!B2")).toMatchObject({ formula: "", value: 42.5 });
    // The anchor and every spilled cell hold values now, dates in their date format.
    expect(host.cell("Sheet1!D2")).toMatchObject({ formula: "", value: 46023, numberFormat: "yyyy-mm" });
    expect(host.cell("Sheet1!E3")).toMatchObject({ formula: "", value: 11 });
    expect(host.cell("Sheet1!A9")?.formula).toBe("=SUM(B2:B3)");
    // Another sheet is outside "sheet".
    expect(host.cell("Other!A1")?.formula).toBe('=PCD.VALUE("3-3-3")');
  });

  test.each<["selection" | "sheet" | "workbook", string[]]>([
    ["selection", ["Sheet1!D2"]],
    ["sheet", ["Sheet1!B2", "Sheet1!D2"]],
    ["workbook", ["Other!A1", "Sheet1!B2", "Sheet1!D2"]],
  ])("scope %s freezes %j", async (scope, expected) => {
    const host = workbook();
    host.selection = "Sheet1!C2:F4"; // D2 (a table's anchor) but not B2
    const outcome = await freeze({ seal: SEAL, host, scope, provenance, now: () => NOW });
    expect(outcome.status === "frozen" ? outcome.cells.map((cell) => cell.address) : outcome).toEqual(
      expected,
    );
  });

  test("keeps provenance in the document settings: address, formula, code, currency, unit, release, retrieved-at", async () => {
    const host = workbook();
    await freeze({ seal: SEAL, host, scope: "sheet", provenance, now: () => NOW });
    const record = parseFrozenRecord(host.settings.get(FROZEN_SETTING));
    expect(record.cells.map((cell) => [cell.address, cell.formula, cell.range, cell.frozenAt])).toEqual([
      ["Sheet1!B2", '=PCD.VALUE("1-1-1","2026-10")', "Sheet1!B2", "2026-11-20T09:30:00.000Z"],
      ["Sheet1!D2", '=PCD.VALUES("2-2-2")', "Sheet1!D2:E3", "2026-11-20T09:30:00.000Z"],
    ]);
    expect(record.cells[1]?.values).toEqual([
      [46023, 10],
      [46054, 11],
    ]);
    expect(record.cells[0]?.series).toEqual([series("1-1-1")]);
  });

  test('writes a visible "PCD sources" sheet: series, description, release, date retrieved, owner, cells', async () => {
    const host = workbook();
    const outcome = await freeze({ seal: SEAL, host, scope: "sheet", provenance, now: () => NOW });
    expect(outcome).toMatchObject({ status: "frozen", sourcesSheet: "'PCD sources'!A1" });
    const rows = host.sheets.get(SOURCES_SHEET) ?? [];
    expect(rows[0]).toEqual([...SOURCES_HEADER]);
    expect(rows.slice(1, 3)).toEqual([
      [
        "1-1-1",
        "Assessment 1-1-1, Natural gas, Germany",
        "EUR",
        "MWh",
        "2026-11",
        "2026-10",
        "2026-11-19",
        "energy_price (Germany)",
        "Sheet1!B2",
      ],
      [
        "2-2-2",
        "Assessment 2-2-2, Natural gas, Germany",
        "EUR",
        "MWh",
        "2026-11",
        "2026-10",
        "2026-11-19",
        "energy_price (Germany)",
        "Sheet1!D2:E3",
      ],
    ]);
    expect(String(rows.at(-1)?.[0])).toMatch(/frozen by PCD/);
  });

  test("freezing a second sheet keeps the first sheet's record and lists both on the sources sheet", async () => {
    const host = workbook();
    await freeze({ seal: SEAL, host, scope: "sheet", provenance, now: () => NOW });
    host.activeSheet = "Other";
    await freeze({ seal: SEAL, host, scope: "sheet", provenance, now: () => NOW });
    const record = parseFrozenRecord(host.settings.get(FROZEN_SETTING));
    expect(record.cells.map((cell) => cell.address)).toEqual(["Sheet1!B2", "Sheet1!D2", "Other!A1"]);
    expect((host.sheets.get(SOURCES_SHEET) ?? []).map((row) => row[0]).slice(1, 4)).toEqual([
      "3-3-3",
      "1-1-1",
      "2-2-2",
    ]);
  });

  test("a new freeze replaces an earlier entry it overlaps, and Restore then puts the newer formula back", async () => {
    const host = new MemoryWorkbookHost();
    host.setFormula("Sheet1!B2", '=PCD.VALUE("1-1-1")', [[42.5]]);
    await freeze({ seal: SEAL, host, scope: "workbook", provenance, now: () => NOW });
    // The person clears the frozen B2, then a table at A1 spills over it and is frozen in turn.
    host.cells.delete("Sheet1!B2");
    host.setFormula("Sheet1!A1", '=PCD.VALUES("2-2-2")', [
      [46023, 10],
      [46054, 11],
    ]);
    await freeze({ seal: SEAL, host, scope: "workbook", provenance, now: () => NOW });
    const record = parseFrozenRecord(host.settings.get(FROZEN_SETTING));
    expect(record.cells.map((cell) => cell.range)).toEqual(["Sheet1!A1:B2"]);

    const outcome = await restore(host, "all", { seal: SEAL });
    expect(outcome).toMatchObject({ restored: ["Sheet1!A1:B2"], refused: [], changed: [], remaining: 0 });
    expect(host.cell("Sheet1!A1")?.formula).toBe('=PCD.VALUES("2-2-2")');
  });

  describe("a write that fails part way", () => {
    function twoSheets(): MemoryWorkbookHost {
      const host = new MemoryWorkbookHost();
      host.setFormula("Inputs!B2", '=PCD.VALUE("1-1-1")', [[42.5]]);
      host.setFormula("Totals!B2", '=PCD.VALUE("2-2-2")', [[7]]);
      return host;
    }
    const freezeAll = (host: MemoryWorkbookHost) =>
      freeze({ seal: SEAL, host, scope: "workbook", provenance, now: () => NOW });

    test("a protected sheet: the record and the sources sheet keep only what was frozen", async () => {
      const host = twoSheets();
      host.protectedSheets.add("Totals");
      await expect(freezeAll(host)).rejects.toThrow(
        /^it stopped at Totals!B2 \(The sheet Totals is protected\.\): 1 of 2 were frozen \(Inputs!B2\) and can be restored; that cell keeps its formula\.$/,
      );
      expect(host.cell("Inputs!B2")).toMatchObject({ formula: "", value: 42.5 });
      expect(host.cell("Totals!B2")?.formula).toBe('=PCD.VALUE("2-2-2")');
      const record = parseFrozenRecord(host.settings.get(FROZEN_SETTING));
      expect(record.cells.map((cell) => cell.range)).toEqual(["Inputs!B2"]);
      expect((host.sheets.get(SOURCES_SHEET) ?? []).slice(1, -2).map((row) => row[0])).toEqual(["1-1-1"]);

      const outcome = await restore(host, "all", { seal: SEAL });
      expect(outcome).toMatchObject({ restored: ["Inputs!B2"], changed: [], refused: [], remaining: 0 });
    });

    test("a protected workbook structure: nothing is frozen and the record is as it was", async () => {
      const host = twoSheets();
      host.structureProtected = true;
      await expect(freezeAll(host)).rejects.toThrow(
        /^nothing was frozen: the sheet "PCD sources" could not be written \(The workbook's structure is protected: no sheet can be added\.\)\.$/,
      );
      expect(host.cell("Inputs!B2")?.formula).toBe('=PCD.VALUE("1-1-1")');
      expect(host.cell("Totals!B2")?.formula).toBe('=PCD.VALUE("2-2-2")');
      expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells).toEqual([]);
    });
  });

  test.each<[string, string, string]>([
    ["#BUSY!", "Sheet1!B2", "#BUSY!"],
    ["#N/A in a spilled table", "Sheet1!E3", "#N/A"],
    ["#VALUE!", "Sheet1!B2", "#VALUE!"],
  ])("refuses when a PCD cell shows %s, names it and changes nothing", async (_name, address, shows) => {
    const host = workbook();
    host.type(address, shows);
    const anchor = address === "Sheet1!E3" ? "Sheet1!D2" : "Sheet1!B2";
    if (anchor === "Sheet1!B2") host.setFormula("Sheet1!B2", '=PCD.VALUE("1-1-1","2026-10")', [[shows]]);
    const outcome = await freeze({ seal: SEAL, host, scope: "sheet", provenance, now: () => NOW });
    expect(outcome).toEqual({ status: "refused", refused: [{ address: anchor, shows }] });
    expect(host.cell("Sheet1!D2")?.formula).toBe('=PCD.VALUES("2-2-2")');
    expect(host.cell("Sheet1!B2")?.formula).toBe('=PCD.VALUE("1-1-1","2026-10")');
    expect(host.settingWrites).toBe(0);
    expect(host.sheets.size).toBe(0);
  });

  test("says so when the scope holds no PCD formula", async () => {
    const host = workbook();
    host.selection = "Sheet1!A9";
    expect(await freeze({ seal: SEAL, host, scope: "selection", provenance, now: () => NOW })).toEqual({
      status: "nothing",
      scope: "selection",
    });
  });

  test("an unreadable record stops the freeze before any formula is replaced", async () => {
    const host = workbook();
    host.settings.set(FROZEN_SETTING, { version: 7 });
    await expect(freeze({ seal: SEAL, host, scope: "sheet", provenance, now: () => NOW })).rejects.toThrow(
      /record of frozen cells/,
    );
    expect(host.cell("Sheet1!B2")?.formula).toBe('=PCD.VALUE("1-1-1","2026-10")');
  });
});

test("describeRefused lists a few cells and counts the rest", () => {
  const refused = Array.from({ length: 7 }, (_, i) => ({ address: `Sheet1!A${i + 1}`, shows: "#BUSY!" }));
  expect(describeRefused(refused.slice(0, 2))).toBe("Sheet1!A1 (#BUSY!), Sheet1!A2 (#BUSY!)");
  expect(describeRefused(refused)).toBe(
    "Sheet1!A1 (#BUSY!), Sheet1!A2 (#BUSY!), Sheet1!A3 (#BUSY!), Sheet1!A4 (#BUSY!), Sheet1!A5 (#BUSY!) and 2 more",
  );
});
