import {
  lostPurchaseAuditLine,
  printLostPurchaseAudits,
} from "../../../src/gateway/purchase/lost-purchase-audit";
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

/** The row's JSON at the line's end. */
const rowOf = (line: string): unknown => JSON.parse(line.slice(line.indexOf("{")));

test.each<[string, PurchasedCode[], string]>([
  ["one code", [code("970-1-1", "ann@example.com")], "1 data request;"],
  [
    "codes of two members",
    [code("970-1-1", "ann@example.com"), code("971-1-1", "bob@example.com")],
    "2 data requests;",
  ],
])("%s: the line says what the service charged and holds the row as JSON", (_case, codes, charged) => {
  const line = lostPurchaseAuditLine(purchase(codes));
  expect(line).toMatch(/^PCD gateway: stopped with a purchase the database would not record/);
  expect(line).toContain(charged);
  expect(line).not.toContain("\n");
  expect(rowOf(line)).toEqual({
    at: "2026-11-10T15:00:00.000Z",
    product: "energy_price",
    operation: "series_values",
    codes: codes.map(({ code: value, dataset, member }) => ({ code: value, dataset, member })),
  });
});

test("each purchase goes to standard error as one line", () => {
  const written: string[] = [];
  const write = jest
    .spyOn(process.stderr, "write")
    .mockImplementation((text: string | Uint8Array) => written.push(String(text)) > 0);
  try {
    printLostPurchaseAudits([
      purchase([code("970-1-1", "ann@example.com")]),
      purchase([code("972-1-1", "bob@example.com")]),
    ]);
  } finally {
    write.mockRestore();
  }
  expect(written).toHaveLength(2);
  expect(
    written.map((line) => (rowOf(line.trimEnd()) as { codes: Array<{ code: string }> }).codes[0]?.code),
  ).toEqual(["970-1-1", "972-1-1"]);
  expect(written.every((line) => line.endsWith("\n"))).toBe(true);
});
