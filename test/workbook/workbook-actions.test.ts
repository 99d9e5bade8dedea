import { freeze } from "../../src/workbook/freeze";
import { SEAL, testSeal } from "./test-seal";
import { describeActionState, WorkbookActions, type ActionState } from "../../src/workbook/workbook-actions";
import { MemoryWorkbookHost } from "./memory-workbook-host";

const noEngine = {
  resolve: () => Promise.reject(new Error("not in the catalog")),
  peek: () => undefined,
};

describe("describeActionState", () => {
  test.each<[string, ActionState, string, RegExp]>([
    ["idle says nothing", { status: "idle" }, "", /^$/],
    ["running", { status: "running", action: "freezeSheet" }, "info", /^Freezing…$/],
    [
      "refused names the cells and what they show",
      {
        status: "done",
        action: "freezeSheet",
        result: {
          kind: "freeze",
          outcome: { status: "refused", refused: [{ address: "Sheet1!B2", shows: "#BUSY!" }] },
        },
      },
      "warning",
      /^Nothing was frozen: Sheet1!B2 \(#BUSY!\) shows no value/,
    ],
    [
      "nothing to freeze names the scope",
      {
        status: "done",
        action: "freezeSelection",
        result: { kind: "freeze", outcome: { status: "nothing", scope: "selection" } },
      },
      "info",
      /the selection has no PCD formula/,
    ],
    [
      "restore with an edited cell names it, its frozen and its current value",
      {
        status: "done",
        action: "restoreAll",
        result: {
          kind: "restore",
          outcome: {
            restored: ["Sheet1!D2:E3"],
            changed: [{ range: "Sheet1!B2", cells: [{ cell: "Sheet1!B2", frozen: 42.5, now: 40 }] }],
            unconfirmed: [],
            refused: [],
            remaining: 1,
          },
          agreed: { confirmed: [], overwrite: [] },
        },
      },
      "warning",
      /^Restored 1 formula\. Not restored, Sheet1!B2 changed since the freeze in one cell: B2 \(frozen 42\.5, now 40\)\. .*"Restore anyway"/,
    ],
    [
      "restore names every edited cell of a block, numbers as a person reads them",
      {
        status: "done",
        action: "restoreAll",
        result: {
          kind: "restore",
          outcome: {
            restored: [],
            changed: [
              {
                range: "Sheet1!B2:D12",
                cells: [
                  { cell: "Sheet1!C3", frozen: 28.568466666666666, now: 123 },
                  { cell: "Sheet1!D7", frozen: 31.25, now: "" },
                ],
              },
            ],
            unconfirmed: [],
            refused: [],
            remaining: 1,
          },
          agreed: { confirmed: [], overwrite: [] },
        },
      },
      "warning",
      /^Not restored, Sheet1!B2:D12 changed since the freeze in 2 cells: C3 \(frozen 28\.56846667, now 123\), D7 \(frozen 31\.25, now empty\)\. They keep what was typed .*"Restore anyway" to overwrite them\.$/,
    ],
    [
      "a failure says what failed",
      { status: "failed", action: "restoreAll", message: "boom" },
      "error",
      /^Restore failed: boom$/,
    ],
  ])("%s", (_name, state, intent, text) => {
    const said = describeActionState(state);
    expect(said?.intent ?? "").toBe(intent);
    expect(said?.text ?? "").toMatch(text);
  });
});

describe("WorkbookActions", () => {
  test("runs one action at a time, tells listeners, and never rejects", async () => {
    const host = new MemoryWorkbookHost();
    host.setFormula("Sheet1!A1", '=PCD.VALUE("1-1-1")', [[5]]);
    const actions = new WorkbookActions(
      () => host,
      () => noEngine,
      SEAL,
      () => 0,
    );
    const seen: string[] = [];
    actions.subscribe((state) => seen.push(`${state.status}${"action" in state ? ` ${state.action}` : ""}`));
    await Promise.all([actions.run("freezeSheet"), actions.run("restoreAll")]);
    expect(seen).toEqual([
      "running freezeSheet",
      "done freezeSheet",
      "running restoreAll",
      "done restoreAll",
    ]);
    expect(host.cell("Sheet1!A1")?.formula).toBe('=PCD.VALUE("1-1-1")');
    host.settings.set("pcd.frozen", "{not json");
    await actions.run("restoreAll");
    expect(actions.current()).toMatchObject({ status: "failed", action: "restoreAll" });
  });

  describe("a block frozen on another computer and edited since", () => {
    /** B2 frozen with another computer's seal, then a value typed over it. */
    async function editedForeignFreeze(): Promise<{ host: MemoryWorkbookHost; actions: WorkbookActions }> {
      const host = new MemoryWorkbookHost();
      host.setFormula("Sheet1!B2", '=PCD.VALUE("1-1-1")', [[42.5]]);
      await freeze({ seal: testSeal(), host, scope: "workbook", provenance: async () => [], now: () => 0 });
      host.type("Sheet1!B2", 40);
      const actions = new WorkbookActions(
        () => host,
        () => noEngine,
        SEAL,
        () => 0,
      );
      return { host, actions };
    }

    function restoreOutcome(actions: WorkbookActions) {
      const state = actions.current();
      if (state.status !== "done" || state.result.kind !== "restore")
        throw new Error(`not a restore: ${state.status}`);
      return state.result.outcome;
    }

    test("is restored once the person confirmed its formula and then its overwrite", async () => {
      const { host, actions } = await editedForeignFreeze();
      await actions.run("restoreAll");
      const asked = restoreOutcome(actions);
      expect(asked.unconfirmed).toEqual([{ range: "Sheet1!B2", formula: '=PCD.VALUE("1-1-1")' }]);

      await actions.confirmAndRestore(asked.unconfirmed);
      const edited = restoreOutcome(actions);
      expect(edited.unconfirmed).toEqual([]);
      expect(edited.changed).toEqual([
        { range: "Sheet1!B2", cells: [{ cell: "Sheet1!B2", frozen: 42.5, now: 40 }] },
      ]);
      expect(host.cell("Sheet1!B2")?.formula).toBe("");

      const [block] = edited.changed;
      if (block === undefined) throw new Error("no changed block");
      await actions.overwriteAndRestore(block);
      expect(restoreOutcome(actions)).toMatchObject({
        restored: ["Sheet1!B2"],
        unconfirmed: [],
        changed: [],
      });
      expect(host.cell("Sheet1!B2")?.formula).toBe('=PCD.VALUE("1-1-1")');
    });

    test("a new Restore asks again: an earlier agreement does not carry into it", async () => {
      const { host, actions } = await editedForeignFreeze();
      await actions.run("restoreAll");
      await actions.confirmAndRestore(restoreOutcome(actions).unconfirmed);
      expect(restoreOutcome(actions).changed).toHaveLength(1);

      await actions.run("restoreAll");
      expect(restoreOutcome(actions).unconfirmed).toHaveLength(1);
      expect(host.cell("Sheet1!B2")?.formula).toBe("");
    });

    test("agreeing does nothing when the last action was not a Restore", async () => {
      const { host, actions } = await editedForeignFreeze();
      await actions.overwriteAndRestore({
        range: "Sheet1!B2",
        cells: [{ cell: "Sheet1!B2", frozen: 42.5, now: 40 }],
      });
      await actions.confirmAndRestore([{ range: "Sheet1!B2", formula: '=PCD.VALUE("1-1-1")' }]);
      expect(actions.current()).toEqual({ status: "idle" });
      expect(host.cell("Sheet1!B2")?.formula).toBe("");
    });
  });

  test("writes the release report to its month's sheet", async () => {
    const host = new MemoryWorkbookHost();
    const actions = new WorkbookActions(
      () => host,
      () => noEngine,
      SEAL,
    );
    await actions.writeReport(
      [
        {
          key: "k",
          code: "1-1-1",
          currency: "EUR",
          unit: "MWh",
          months: [{ month: "2026-11", kind: "new", before: null, after: 3, changePercent: null }],
        },
      ],
      Date.UTC(2026, 11, 3),
    );
    expect(host.sheets.get("PCD changes 2026-12")?.[1]).toEqual([
      "1-1-1",
      "EUR",
      "MWh",
      "2026-11",
      "new month",
      "",
      3,
      "",
    ]);
  });

  test.each<[string, { rows: number; columns: number }, number, RegExp | null]>([
    ["fits exactly", { rows: 300, columns: 26 }, 299, null],
    [
      "one row too many",
      { rows: 300, columns: 26 },
      300,
      /^The report needs 301 rows; a sheet here holds 300\. Nothing was written\. Write the report in Excel/,
    ],
    [
      "too few columns",
      { rows: 300, columns: 5 },
      3,
      /^The report needs 8 columns; a sheet here holds 5\. Nothing was written\./,
    ],
  ])("writes the report whole or not at all: %s", async (_name, limits, months, refused) => {
    const host = new MemoryWorkbookHost();
    host.limits = limits;
    const actions = new WorkbookActions(
      () => host,
      () => noEngine,
      SEAL,
    );
    const changes = [
      {
        key: "k",
        code: "1-1-1",
        currency: "EUR",
        unit: "MWh",
        months: Array.from({ length: months }, (_month, index) => ({
          month: `${2000 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`,
          kind: "revised" as const,
          before: index,
          after: index + 1,
          changePercent: null,
        })),
      },
    ];
    const written = actions.writeReport(changes, Date.UTC(2026, 11, 3));
    if (refused === null) {
      await expect(written).resolves.toBe("'PCD changes 2026-12'!A1");
      expect(host.sheets.get("PCD changes 2026-12")).toHaveLength(months + 1);
    } else {
      await expect(written).rejects.toThrow(refused);
      expect(host.sheets.has("PCD changes 2026-12")).toBe(false);
    }
  });
});
