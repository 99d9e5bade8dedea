// PCD.RELOCATE on the real engine (fake transport): two factors divide only on one base; a
// factor of another base, one whose base its texts do not say, or a price series is #VALUE!.
import type { SeriesInfo } from "../../src/core/model";
import type { CellError } from "../../src/functions/cell-errors";
import { relocateJob, type RelocateArguments } from "../../src/functions/relocate";
import { startStreamingCell } from "../../src/functions/streaming-cell";
import { createHarness, type Harness } from "../core/support/engine-harness";
import { FakeService } from "../core/support/fake-service";
import { seriesInfo } from "../core/support/series-fixtures";

const GERMANY_VS_US = "2066-1-12";
const BELGIUM_VS_US = "2066-1-3";
const BELGIUM_VS_GERMANY = "37417-2-3";
const FRANCE_VS_JAPAN = "37417-3-11";
const SPAIN_NO_BASE = "37417-9-28";
const GERMANY_VS_CHINA = "37417-3-12";
const PRICE = "68520-8-1";

const FACTORS: Record<string, number> = {
  [GERMANY_VS_US]: 1.64501,
  [BELGIUM_VS_US]: 1.18612,
  [BELGIUM_VS_GERMANY]: 0.721033,
  [FRANCE_VS_JAPAN]: 1.9,
  [SPAIN_NO_BASE]: 1.1,
  [GERMANY_VS_CHINA]: 0.95,
};

function factor(
  code: string,
  location: string,
  assessment: string,
  specification: string | null = null,
): SeriesInfo {
  return seriesInfo({
    code,
    product: "industry_economics",
    dataType: "location_factor",
    commodity: "Location Factor",
    location,
    coverage: location,
    assessment,
    specification,
    hasForecast: false,
    lastAvailableFinal: "2026-10",
  });
}

function service(): FakeService {
  const fake = new FakeService();
  fake.addSeries(seriesInfo({ code: PRICE }));
  fake.addSeries(
    factor(
      GERMANY_VS_US,
      "Germany",
      "Location factor, Germany vs United States",
      "Plant construction cost in Germany relative to United States = 1.00",
    ),
    factor(BELGIUM_VS_US, "Belgium", "Location factor, Belgium vs United States"),
    // The wording a real deployment uses.
    factor(BELGIUM_VS_GERMANY, "Belgium", "Belgium relative to Germany"),
    factor(FRANCE_VS_JAPAN, "France", "Location factor, France vs Japan"),
    factor(GERMANY_VS_CHINA, "Germany", "Location factor, Germany vs China"),
    factor(SPAIN_NO_BASE, "Spain", "Location factor", "Plant construction cost"),
  );
  fake.valueOf = (code) => FACTORS[code] ?? 100;
  return fake;
}

type Outcome = number | CellError;

async function run(h: Harness, args: RelocateArguments): Promise<Outcome> {
  let cell: { cancel(): void } | undefined;
  const outcome = await new Promise<Outcome>((resolve) => {
    cell = startStreamingCell<number, CellError>(
      { setResult: (value) => resolve(value as Outcome) },
      relocateJob(h.engine, args),
      { engine: h.engine, toHostError: (error) => error, now: () => h.engine.now() },
    );
  });
  cell?.cancel();
  return outcome;
}

const valueError = (message: string): CellError => ({ type: "#VALUE!", message });

test.each<[string, string, string, Outcome]>([
  ["two factors on one base", GERMANY_VS_US, BELGIUM_VS_US, (85_000_000 * 1.18612) / 1.64501],
  [
    "two bases, with the two locations on a common base in the catalog",
    GERMANY_VS_US,
    BELGIUM_VS_GERMANY,
    valueError(
      "The from_code 2066-1-12 is relative to United States, the to_code 37417-2-3 to Germany: their ratio means nothing. " +
        "Factors of Germany and Belgium on one base: 2066-1-12 and 2066-1-3 (vs United States).",
    ),
  ],
  [
    "two bases, no common base in the catalog",
    GERMANY_VS_US,
    FRANCE_VS_JAPAN,
    valueError(
      "The from_code 2066-1-12 is relative to United States, the to_code 37417-3-11 to Japan: their ratio means nothing. " +
        "The catalog has no factors of Germany and France on one base.",
    ),
  ],
  [
    "two bases, one location",
    GERMANY_VS_US,
    GERMANY_VS_CHINA,
    valueError(
      "The from_code 2066-1-12 is relative to United States, the to_code 37417-3-12 to China: their ratio means nothing. " +
        "Both are factors of Germany: an amount stays where it is, so give one factor twice, e.g. 2066-1-12.",
    ),
  ],
  [
    "a factor whose base its texts do not say",
    GERMANY_VS_US,
    SPAIN_NO_BASE,
    valueError(
      'The to_code 37417-9-28 ("Location factor") does not say which location it is relative to: PCD.RELOCATE needs two factors it can tell are on one base.',
    ),
  ],
  [
    "a price series given as a factor",
    PRICE,
    GERMANY_VS_US,
    valueError(
      "The from_code 68520-8-1 is not a location factor (it is Natural gas): PCD.RELOCATE needs two location-factor series.",
    ),
  ],
])("PCD.RELOCATE of %s", async (_case, from, to, expected) => {
  const h = createHarness({ service: service() });
  const result = await run(h, { amount: 85_000_000, from_code: from, to_code: to, date: null });
  if (typeof expected === "number") expect(result).toBeCloseTo(expected, 6);
  else expect(result).toEqual(expected);
});
