import { releaseChoice } from "../../bench/scenarios";
import { codes, key, series } from "./fixtures";

describe("releaseChoice", () => {
  const current = codes("1", 100).map((code) => series(code, "energy_price"));
  const discontinued = codes("2", 20).map((code) =>
    series(code, "energy_price", { lastAvailableFinal: "2015-06-01" }),
  );
  const byCode = new Map([...current, ...discontinued].map((entry) => [entry.code, entry]));
  const keys = [...current, ...discontinued].map((entry) => key(entry.code, "energy_price", "energy"));
  const choice = releaseChoice(keys, byCode, 3);

  test("revises about 3 % and holds back about 5 % of the workbook's current series", () => {
    expect(choice.revise).toHaveLength(3);
    expect(choice.unchanged).toHaveLength(5);
  });

  test("never picks a discontinued series, nor one code for both", () => {
    for (const code of [...choice.revise, ...choice.unchanged]) expect(code.startsWith("1-")).toBe(true);
    expect(choice.revise.filter((code) => choice.unchanged.includes(code))).toEqual([]);
  });

  test("is the same for the same seed", () => {
    expect(releaseChoice(keys, byCode, 3)).toEqual(choice);
  });
});
