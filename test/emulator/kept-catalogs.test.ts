// Catalogs kept between processes: what is read back is the catalog that was generated, field
// for field; a missing or unreadable file reads as none, and catalogForSeed then generates the
// catalog and keeps it; a folder that cannot be written costs nothing but the next generation.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serialize } from "node:v8";
import { generateCatalog, type Catalog, type SeriesDefinition } from "../../src/emulator/catalog";
import { CATALOG_CACHE_VARIABLE, keepCatalog, readKeptCatalog } from "../../src/emulator/kept-catalogs";

const SEED = 11;
const generated = generateCatalog(SEED);
/** The lanes' own folder (jest.config.js), given back after each test. */
const lanesFolder = process.env[CATALOG_CACHE_VARIABLE];
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), "pcd-kept-catalogs-"));
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
  if (lanesFolder === undefined) delete process.env[CATALOG_CACHE_VARIABLE];
  else process.env[CATALOG_CACHE_VARIABLE] = lanesFolder;
});

/** catalogForSeed of a module registry of its own (the module keeps one catalog per seed). */
function catalogInNewRegistry(seed: number): Catalog {
  let catalog: Catalog | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fresh = require("../../src/emulator/catalog") as typeof import("../../src/emulator/catalog");
    catalog = fresh.catalogForSeed(seed);
  });
  if (catalog === undefined) throw new Error("catalogForSeed returned nothing");
  return catalog;
}

test("a kept catalog reads back as generated, absent fields included", () => {
  keepCatalog(folder, SEED, generated.series);
  const kept = readKeptCatalog(folder, SEED);
  expect(kept).toEqual(generated.series);
  expect(kept?.map((series) => Object.keys(series))).toEqual(
    generated.series.map((series) => Object.keys(series)),
  );
  expect(readdirSync(folder)).toEqual([`catalog-${SEED}.v8`]);
});

test.each<[string, (file: string) => void]>([
  ["no file", () => undefined],
  ["a file of other bytes", (file) => writeFileSync(file, "not a catalog")],
  ["an empty list", (file) => writeFileSync(file, serialize([]))],
])("%s reads as no kept catalog", (_name, prepare) => {
  prepare(path.join(folder, `catalog-${SEED}.v8`));
  expect(readKeptCatalog(folder, SEED)).toBeUndefined();
});

test("catalogForSeed with an unreadable kept catalog generates the catalog and keeps it", () => {
  writeFileSync(path.join(folder, `catalog-${SEED}.v8`), "not a catalog");
  process.env[CATALOG_CACHE_VARIABLE] = folder;
  expect(catalogInNewRegistry(SEED).series).toEqual(generated.series);
  expect(readKeptCatalog(folder, SEED)).toEqual(generated.series);
});

test("catalogForSeed reads the kept catalog instead of generating one", () => {
  const [first, ...rest] = generated.series as SeriesDefinition[];
  if (first === undefined) throw new Error("empty catalog");
  keepCatalog(folder, SEED, [{ ...first, assessment: "Kept, not generated" }, ...rest]);
  process.env[CATALOG_CACHE_VARIABLE] = folder;
  const catalog = catalogInNewRegistry(SEED);
  expect(catalog.get(first.code)?.assessment).toBe("Kept, not generated");
  expect(catalog.series).toHaveLength(generated.series.length);
});

test("a folder that cannot be written: nothing is thrown and no partial file is left", () => {
  const blocked = path.join(folder, "a-file");
  writeFileSync(blocked, "");
  expect(() => keepCatalog(path.join(blocked, "catalogs"), SEED, generated.series)).not.toThrow();
  expect(readdirSync(folder)).toEqual(["a-file"]);
});
