// withStore: a command's store is closed whatever its work does, and a store that cannot be
// opened is a message naming the database (its password masked) and exit code 1.
import { PassThrough } from "node:stream";
import { withStore } from "../../../src/gateway/admin/command-arguments";
import { EXIT_FAILED, type CommandIo } from "../../../src/gateway/admin/command-io";
import type { GatewayStore } from "../../../src/gateway/store/gateway-store";

function harness(open: (spec: string) => Promise<GatewayStore>) {
  const stderr = new PassThrough();
  let text = "";
  stderr.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  const io: CommandIo = { stdin: new PassThrough(), stdout: new PassThrough(), stderr, openStore: open };
  return { io, stderr: () => text };
}

function storeCountingCloses(): { store: GatewayStore; closes: () => number } {
  let closes = 0;
  const partial: Partial<GatewayStore> = {
    close: () => {
      closes += 1;
      return Promise.resolve();
    },
  };
  return { store: partial as GatewayStore, closes: () => closes };
}

test.each([
  { case: "the work answers 0", work: () => Promise.resolve(0), outcome: 0 },
  { case: "the work answers 1", work: () => Promise.resolve(EXIT_FAILED), outcome: EXIT_FAILED },
  { case: "the work fails", work: () => Promise.reject(new Error("disk full")), outcome: "disk full" },
])("$case: the store is closed once and the outcome passed on", async ({ work, outcome }) => {
  const { store, closes } = storeCountingCloses();
  const opened: string[] = [];
  const { io } = harness((spec) => {
    opened.push(spec);
    return Promise.resolve(store);
  });
  const run = withStore("/var/lib/pcd-gateway", io, work);
  if (typeof outcome === "number") await expect(run).resolves.toBe(outcome);
  else await expect(run).rejects.toThrow(outcome);
  expect(opened).toEqual(["/var/lib/pcd-gateway"]);
  expect(closes()).toBe(1);
});

test("a store that cannot be opened: exit code 1, the database named without its password, no work", async () => {
  const { io, stderr } = harness(() => Promise.reject(new Error("connection refused")));
  let worked = false;
  const code = await withStore("postgres://gateway:db-s3cret@db.example:5432/pcd", io, () => {
    worked = true;
    return Promise.resolve(0);
  });
  expect(code).toBe(EXIT_FAILED);
  expect(worked).toBe(false);
  expect(stderr()).toBe(
    "Could not open the database postgres://gateway:***@db.example:5432/pcd: connection refused\n",
  );
});
