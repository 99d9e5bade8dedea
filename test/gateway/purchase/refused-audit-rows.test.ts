import {
  printRefusedAuditRows,
  refusedAuditRowLine,
  type RefusedRowEvent,
} from "../../../src/gateway/purchase/refused-audit-rows";
import type { Purchase, PurchasedCode } from "../../../src/gateway/store/gateway-store";

const AT = new Date("2026-11-10T15:00:00Z");

const code = (value: string, member: string): PurchasedCode => ({
  key: `energy_price|series_values|${value}`,
  code: value,
  dataset: "Germany",
  member,
});

const purchase = (codes: PurchasedCode[]): Purchase => ({
  at: AT,
  product: "energy_price",
  operation: "series_values",
  codes,
});

const ONE = [code("970-1-1", "ann@example.com")];
const TWO = [code("970-1-1", "ann@example.com"), code("971-1-1", "bob@example.com")];

/** The row's JSON at the line's end. */
const rowOf = (line: string): unknown => JSON.parse(line.slice(line.indexOf("{")));

test.each<[RefusedRowEvent, PurchasedCode[], RegExp]>([
  [
    "waiting",
    ONE,
    /^PCD gateway: the database refused a purchase's audit row \(the service charged 1 data request\); the gateway keeps it and writes it again, and a later line says when/,
  ],
  ["waiting", TWO, /\(the service charged 2 data requests\)/],
  ["written", TWO, /^PCD gateway: a purchase's audit row the database refused before is now written: \{/],
  [
    "lost",
    ONE,
    /^PCD gateway: stopped with a purchase the database would not record \(the service charged 1 data request; the usage report lacks them\)/,
  ],
  ["lost", TWO, /charged 2 data requests;/],
  [
    "cut off",
    ONE,
    /^PCD gateway: stopped while a purchase's call was still out \(the service may charge up to 1 data request; the usage report lacks them\)/,
  ],
  ["cut off", TWO, /may charge up to 2 data requests;/],
])("%s (%#): one line saying what happened, with the row as JSON", (event, codes, says) => {
  const line = refusedAuditRowLine(event, purchase(codes));
  expect(line).toMatch(says);
  expect(line).not.toContain("\n");
  expect(rowOf(line)).toEqual({
    at: "2026-11-10T15:00:00.000Z",
    product: "energy_price",
    operation: "series_values",
    codes: codes.map(({ code: value, dataset, member }) => ({ code: value, dataset, member })),
  });
});

test("the lines of one purchase end with the same row, so that they can be matched", () => {
  const rows = (["waiting", "written", "lost", "cut off"] as const).map((event) =>
    rowOf(refusedAuditRowLine(event, purchase(TWO))),
  );
  for (const row of rows.slice(1)) expect(row).toEqual(rows[0]);
});

test("each report goes to standard error, one line per purchase", () => {
  const written: string[] = [];
  const write = jest
    .spyOn(process.stderr, "write")
    .mockImplementation((text: string | Uint8Array) => written.push(String(text)) > 0);
  try {
    printRefusedAuditRows.waiting(purchase([code("969-1-1", "ann@example.com")]));
    printRefusedAuditRows.written(purchase([code("969-1-1", "ann@example.com")]));
    printRefusedAuditRows.lost([
      purchase([code("970-1-1", "ann@example.com")]),
      purchase([code("972-1-1", "bob@example.com")]),
    ]);
    printRefusedAuditRows.cutOff([
      purchase([code("973-1-1", "ann@example.com")]),
      purchase([code("974-1-1", "bob@example.com")]),
    ]);
  } finally {
    write.mockRestore();
  }
  expect(written.map((line) => line.slice(0, line.indexOf("{")).split(" ").slice(2, 5).join(" "))).toEqual([
    "the database refused",
    "a purchase's audit",
    "stopped with a",
    "stopped with a",
    "stopped while a",
    "stopped while a",
  ]);
  expect(
    written.map((line) => (rowOf(line.trimEnd()) as { codes: Array<{ code: string }> }).codes[0]?.code),
  ).toEqual(["969-1-1", "969-1-1", "970-1-1", "972-1-1", "973-1-1", "974-1-1"]);
  expect(written.every((line) => line.endsWith("\n") && line.indexOf("\n") === line.length - 1)).toBe(true);
});
