// The keyboard shortcut's action against the preview's mock Office: associated under the
// id assets/shortcuts.json names, and it opens the task pane.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PreviewHost } from "../../src/preview/mock-office";
import { SheetModel } from "../../src/preview/sheet-model";

const scope = globalThis as unknown as Record<string, unknown>;

afterEach(() => {
  for (const name of ["Office", "Excel", "CustomFunctions", "OfficeRuntime"]) delete scope[name];
});

test("every shortcut action is associated when Office is ready, and showPcdPane opens the pane", async () => {
  const host = new PreviewHost(new SheetModel(5, 5), () => undefined);
  host.install(scope);
  await jest.isolateModulesAsync(async () => {
    await import("../../src/commands/commands");
  });
  await (scope["Office"] as { onReady(): Promise<unknown> }).onReady();
  const shortcuts = JSON.parse(readFileSync(path.join(__dirname, "../../assets/shortcuts.json"), "utf8")) as {
    actions: Array<{ id: string }>;
  };
  for (const action of shortcuts.actions) expect(host.record.actions.has(action.id)).toBe(true);
  await host.record.actions.get("showPcdPane")?.({ completed: () => undefined });
  expect(host.record.taskpaneShown).toBe(1);
});

test("the manifest's Freeze menu items are associated, and one runs on the workbook and completes", async () => {
  const host = new PreviewHost(new SheetModel(5, 5), () => undefined);
  host.install(scope);
  let actions: typeof import("../../src/host/browser-services") | undefined;
  await jest.isolateModulesAsync(async () => {
    await import("../../src/commands/commands");
    actions = await import("../../src/host/browser-services");
  });
  await (scope["Office"] as { onReady(): Promise<unknown> }).onReady();
  const manifest = readFileSync(path.join(__dirname, "../../manifest.xml"), "utf8");
  const menu = /<Control xsi:type="Menu" id="PCD.FreezeMenu">([\s\S]*?)<\/Control>/.exec(manifest)?.[1] ?? "";
  const names = [...menu.matchAll(/<FunctionName>(\w+)<\/FunctionName>/g)].map((match) => match[1]);
  expect(names).toEqual([
    "freezeSelection",
    "freezeSheet",
    "freezeWorkbook",
    "restoreAll",
    "restoreSelection",
  ]);
  for (const name of names) expect(host.record.actions.has(name ?? "")).toBe(true);
  // An empty sheet: Freeze says there is nothing to freeze (and Office is told the action completed).
  await host.runAction("freezeSheet");
  expect(host.record.taskpaneShown).toBe(1);
  expect(actions?.getWorkbookActions().current()).toEqual({
    status: "done",
    action: "freezeSheet",
    result: { kind: "freeze", outcome: { status: "nothing", scope: "sheet" } },
  });
});
