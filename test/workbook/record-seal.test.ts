import type { FrozenCell } from "../../src/workbook/frozen-record";
import { createRecordSeal } from "../../src/workbook/record-seal";
import { memorySealKeyStore } from "./test-seal";

const CELL: FrozenCell = {
  address: "Sheet1!B2",
  formula: '=PCD.VALUES("1-1-1")',
  range: "Sheet1!B2:C3",
  values: [
    [46023, 10],
    [46054, 11],
  ],
  numberFormats: [
    ["yyyy-mm", "General"],
    ["yyyy-mm", "General"],
  ],
  series: [
    {
      code: "1-1-1",
      currency: "EUR",
      unit: "MWh",
      releaseMonth: "2026-11",
      latestMonth: "2026-10",
      retrievedAt: "2026-11-05T10:00:00.000Z",
      description: "Natural gas",
      owner: "PCD",
    },
  ],
  frozenAt: "2026-11-06T10:00:00.000Z",
};

describe("createRecordSeal", () => {
  test("an entry sealed here verifies, and the key is made once and kept", async () => {
    const store = memorySealKeyStore();
    const seal = createRecordSeal(store);
    const sealed = { ...CELL, seal: await seal.seal(CELL) };
    expect(await seal.verify(sealed)).toBe(true);
    const key = store.key();
    expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // A new session on this computer reads the same key.
    expect(await createRecordSeal(store).verify(sealed)).toBe(true);
    expect(store.key()).toBe(key);
  });

  test.each<[string, (cell: FrozenCell) => FrozenCell]>([
    ["its formula", (cell) => ({ ...cell, formula: '=PCD.VALUES("2-2-2")' })],
    ["its range", (cell) => ({ ...cell, range: "Sheet1!B2:C30" })],
    ["its address", (cell) => ({ ...cell, address: "Sheet1!A1" })],
    [
      "a value",
      (cell) => ({
        ...cell,
        values: [
          [46023, 10],
          [46054, 12],
        ],
      }),
    ],
    [
      "a number format",
      (cell) => ({
        ...cell,
        numberFormats: [
          ["@", "General"],
          ["yyyy-mm", "General"],
        ],
      }),
    ],
    ["a series' description", (cell) => ({ ...cell, series: [{ ...cell.series[0]!, description: "=1+1" }] })],
    ["when it was frozen", (cell) => ({ ...cell, frozenAt: "2026-11-07T10:00:00.000Z" })],
    ["its seal (not base64)", (cell) => ({ ...cell, seal: "not base64!" })],
    ["its seal (removed)", (cell) => ({ ...cell, seal: undefined })],
  ])("an entry whose %s was edited does not verify", async (_name, edit) => {
    const seal = createRecordSeal(memorySealKeyStore());
    const sealed = { ...CELL, seal: await seal.seal(CELL) };
    expect(await seal.verify(edit(sealed))).toBe(false);
  });

  test("another computer's seal does not verify here", async () => {
    const there = createRecordSeal(memorySealKeyStore());
    const here = createRecordSeal(memorySealKeyStore());
    expect(await here.verify({ ...CELL, seal: await there.seal(CELL) })).toBe(false);
  });

  test("a stored key that is not 32 bytes is replaced", async () => {
    const store = memorySealKeyStore();
    await store.write("c2hvcnQ=");
    const seal = createRecordSeal(store);
    await seal.seal(CELL);
    expect(store.key()).not.toBe("c2hvcnQ=");
  });
});
