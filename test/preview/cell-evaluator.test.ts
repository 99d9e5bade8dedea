import { parseCell } from "../../src/preview/a1";
import { CellEvaluator, type CustomFunction, type PreviewInvocation } from "../../src/preview/cell-evaluator";
import { ShimCustomFunctionsError } from "../../src/headless/custom-functions-shim";
import { SheetModel } from "../../src/preview/sheet-model";

interface Call {
  args: unknown[];
  invocation: PreviewInvocation;
}

function setup() {
  const sheet = new SheetModel(10, 4);
  const calls: Call[] = [];
  const cancelled: string[] = [];
  // A streaming function with two parameters, like PCD.INFO(code, field, invocation).
  function info(code: unknown, field: unknown, invocation: PreviewInvocation): void {
    calls.push({ args: [code, field], invocation });
    invocation.onCanceled = () => cancelled.push(invocation.address);
  }
  // A function that returns its result instead of calling setResult (the invocation
  // still comes last, as for every PCD function).
  async function plain(code: unknown, _invocation: PreviewInvocation): Promise<string> {
    return `value of ${String(code)}`;
  }
  const functions = new Map<string, CustomFunction>([
    ["INFO", info as CustomFunction],
    ["VALUE", plain as CustomFunction],
  ]);
  const evaluator = new CellEvaluator(sheet, (name) => functions.get(name));
  sheet.subscribe((event) => {
    if (event.type === "cell") evaluator.evaluate(event.address);
  });
  const enter = (address: string, text: string) => sheet.setContent(parseCell(address), text);
  return { sheet, evaluator, calls, cancelled, enter };
}

test.each<[string, string, unknown[]]>([
  ["omitted trailing arguments arrive as null", '=PCD.INFO("1-2-3")', ["1-2-3", null]],
  ["empty arguments arrive as null", '=PCD.INFO("1-2-3",)', ["1-2-3", null]],
  ["numbers stay numbers", "=pcd.info(68520, 2)", [68520, 2]],
  ["quotes inside strings", '=PCD.INFO("a""b","x")', ['a"b', "x"]],
])("calls the registered function: %s", (_name, formula, args) => {
  const { calls, enter, evaluator } = setup();
  enter("A1", formula);
  expect(calls.map((call) => call.args)).toEqual([args]);
  expect(calls[0]?.invocation.address).toBe("Sheet1!A1");
  expect(evaluator.result("A1")).toEqual({ kind: "busy" });
});

test("every setResult updates the cell; editing cancels the old invocation and ignores it", () => {
  const { calls, cancelled, enter, evaluator } = setup();
  enter("B2", '=PCD.INFO("1-2-3")');
  calls[0]!.invocation.setResult("first");
  calls[0]!.invocation.setResult([["a", 1]]);
  expect(evaluator.result("B2")).toEqual({ kind: "value", value: [["a", 1]] });
  enter("B2", '=PCD.INFO("4-5-6")');
  expect(cancelled).toEqual(["Sheet1!B2"]);
  calls[0]!.invocation.setResult("late");
  expect(evaluator.result("B2")).toEqual({ kind: "busy" });
  calls[1]!.invocation.setResult(new ShimCustomFunctionsError("#N/A", "Not signed in"));
  expect(evaluator.result("B2")).toEqual({ kind: "error", code: "#N/A", message: "Not signed in" });
  expect(evaluator.history.get("B2")?.length).toBe(5);
});

test("a function that returns a promise sets its value", async () => {
  const { enter, evaluator } = setup();
  enter("A1", '=PCD.VALUE("1-2-3")');
  await new Promise((resolve) => setImmediate(resolve));
  expect(evaluator.result("A1")).toEqual({ kind: "value", value: "value of 1-2-3" });
});

test.each<[string, string, object | undefined]>([
  ["typed number", "42", { kind: "value", value: 42 }],
  ["typed text", "hello", { kind: "value", value: "hello" }],
  ["cleared cell", "", undefined],
  ["another function", "=SUM(1,2)", { kind: "error", code: "#NAME?" }],
  ["an unregistered PCD function", '=PCD.SEARCH("gas")', { kind: "error", code: "#NAME?" }],
  ["too many arguments", '=PCD.INFO("1-2-3","a","b")', { kind: "error", code: "#VALUE!" }],
])("content: %s", (_name, content, expected) => {
  const { enter, evaluator } = setup();
  enter("C3", "seed");
  enter("C3", content);
  if (expected === undefined) expect(evaluator.result("C3")).toBeUndefined();
  else expect(evaluator.result("C3")).toMatchObject(expected);
});

test("recalculateAll runs every filled cell again", () => {
  const { calls, enter, evaluator, cancelled } = setup();
  enter("A1", '=PCD.INFO("1-2-3")');
  enter("A2", "7");
  evaluator.recalculateAll();
  expect(calls).toHaveLength(2);
  expect(cancelled).toEqual(["Sheet1!A1"]);
});

test.each<[string, string, unknown[]]>([
  ["an unquoted code arrives as Excel computes it", "=PCD.INFO(68520-8-1)", [68511, null]],
  ["next to a quoted argument", '=PCD.INFO(1-2-3, "a,b")', [-4, "a,b"]],
  ["with precedence and parentheses", "=PCD.INFO((2+3)*4, 10/4)", [20, 2.5]],
])("arithmetic arguments, not #NAME?: %s", (_name, formula, args) => {
  const { calls, enter } = setup();
  enter("A1", formula);
  expect(calls.map((call) => call.args)).toEqual([args]);
});
