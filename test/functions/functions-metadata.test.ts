// functions.json is generated from functions.ts's JSDoc by the metadata plugin: this checks
// what Excel's autocomplete and argument hints will show, and that every function streams.
import path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata/lib/generate";

interface FunctionMetadata {
  id: string;
  name: string;
  description: string;
  helpUrl: string;
  options?: { stream?: boolean };
  parameters: Array<{ name: string; description?: string; type: string; optional?: boolean }>;
  result: { dimensionality?: string };
}

let functions: FunctionMetadata[];

beforeAll(async () => {
  const file = path.join(__dirname, "..", "..", "src", "functions", "functions.ts");
  const generated = await generateCustomFunctionsMetadata([file]);
  expect(generated.errors).toEqual([]);
  functions = (JSON.parse(generated.metadataJson) as { functions: FunctionMetadata[] }).functions;
});

const byId = (id: string): FunctionMetadata => {
  const found = functions.find((fn) => fn.id === id);
  if (!found) throw new Error(`${id} is not declared`);
  return found;
};

test.each([
  ["VALUES", "code,currency?,unit?,start_date?,end_date?,headers?,forecast?,order?,frequency?", "matrix"],
  ["VALUE", "code,date?,currency?,unit?", undefined],
  ["INFO", "code,field?", "matrix"],
  ["LIMITS", "dataset?,product?", "matrix"],
  ["SEARCH", "text,product?,max_rows?", "matrix"],
  ["ESCALATE", "amount,code,from_date,to_date?,currency?,unit?", undefined],
  ["CHANGE", "code,from_date,to_date?,currency?,unit?", undefined],
  ["AVERAGE", "code,start_date,end_date,currency?,unit?,forecast?", undefined],
  ["RELOCATE", "amount,from_code,to_code,date?", undefined],
  // A 1×1 table holding the card entity, or PCD.INFO's table where Excel has no entities.
  ["SERIES", "code,currency?,unit?,history?", "matrix"],
])(
  "PCD.%s keeps its argument order, streams, and documents every argument",
  (id, signature, dimensionality) => {
    const fn = byId(id);
    expect(fn.name).toBe(id);
    expect(fn.parameters.map((p) => `${p.name}${p.optional ? "?" : ""}`).join(",")).toBe(signature);
    expect(fn.options?.stream).toBe(true);
    expect(fn.result.dimensionality).toBe(dimensionality);
    expect(fn.helpUrl).toBe(`https://localhost:3000/help.html#${id.toLowerCase()}`);
    expect(fn.description.length).toBeGreaterThan(20);
    expect(fn.description).not.toContain("\n");
    for (const parameter of fn.parameters) expect(parameter.description?.length ?? 0).toBeGreaterThan(10);
  },
);

test("text-like arguments are 'any' so a number arrives as a number; switches are numbers", () => {
  const types = Object.fromEntries(
    functions.flatMap((fn) => fn.parameters.map((p) => [`${fn.id}.${p.name}`, p.type])),
  );
  expect(types).toMatchObject({
    "VALUES.code": "any",
    "VALUES.currency": "any",
    "VALUES.start_date": "any",
    "VALUES.headers": "number",
    "VALUES.forecast": "number",
    "VALUES.order": "number",
    "VALUE.date": "any",
    "INFO.field": "any",
    "LIMITS.dataset": "any",
    "SEARCH.text": "any",
    "SEARCH.max_rows": "number",
    "SERIES.code": "any",
    "SERIES.history": "number",
  });
});
