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
