// Every lane's test environment (test/support/lane-environment.js) disables, when a test file
// ends, the AsyncLocalStorage instances enabled while it ran, so that Node stops carrying their
// values on every later promise of the worker; an instance used again is enabled again.
import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import type { TestEnvironment } from "jest-environment-node";

type EnvironmentArguments = ConstructorParameters<typeof TestEnvironment>;

// A copy of the module this file's own environment loaded: it shares that one's record. Its
// teardown here disables this file's Jest context too, which Jest enables again at the next test.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const LaneEnvironment = require("../support/lane-environment") as typeof TestEnvironment;

function newEnvironment(): InstanceType<typeof TestEnvironment> {
  const config = {
    projectConfig: { testEnvironmentOptions: {} },
    globalConfig: {},
  } as unknown as EnvironmentArguments[0];
  return new LaneEnvironment(config, {
    console,
    docblockPragmas: {},
    testPath: path.join(__dirname, "a-test-file.test.ts"),
  });
}

type Storage = AsyncLocalStorage<string>;

/** What `storage` holds for a continuation that resumes once `gate` opens. */
const ENABLES: Array<[string, (storage: Storage, gate: Promise<void>) => Promise<unknown>]> = [
  [
    "run",
    (storage, gate) =>
      storage.run("in the file", async () => {
        await gate;
        return storage.getStore();
      }),
  ],
  [
    "enterWith",
    async (storage, gate) => {
      storage.enterWith("in the file");
      await gate;
      return storage.getStore();
    },
  ],
];

test.each(ENABLES)(
  "an instance enabled by %s while a file ran is disabled when the file ends",
  async (_how, hold) => {
    const environment = newEnvironment();
    await environment.setup();
    const storage: Storage = new AsyncLocalStorage<string>();
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const waiting = hold(storage, gate);

    await environment.teardown();
    open();

    // Disabled: a continuation made while it held a value no longer sees it.
    await expect(waiting).resolves.toBeUndefined();
    // Used again (a library loaded once per worker, as Playwright is), it works as before.
    const again = storage.run("next file", async () => {
      await Promise.resolve();
      return storage.getStore();
    });
    await expect(again).resolves.toBe("next file");
  },
);
