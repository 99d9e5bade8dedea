// The SQL store on a new PGlite database (opened once: it takes a second or more).
import "../support/pglite-outside-sandbox";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate } from "../../../src/gateway/database/migrations";
import { openDatabase } from "../../../src/gateway/database/open-database";
import { sqlGatewayStore } from "../../../src/gateway/store/sql-gateway-store";
import { newPGliteDirectory, TEST_SETTINGS } from "../support/new-pglite-directory";
import { storeChecks, type StoreUnderTest } from "./store-checks";

let root: string;
let subject: StoreUnderTest;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "pcd-gateway-sql-store-"));
  const database = await openDatabase(newPGliteDirectory(path.join(root, "store")));
  await migrate(database);
  subject = { database, store: sqlGatewayStore(database) };
});

afterAll(async () => {
  await subject?.store.close();
  rmSync(root, { recursive: true, force: true });
});

storeChecks(() => subject);

// Every copy of the run's template (newPGliteDirectory) starts with these settings.
test("a new test directory starts with the test settings", async () => {
  const rows = await subject.database.query<{ setting: string }>(
    "select current_setting('shared_buffers') as setting",
  );
  expect(rows).toEqual([{ setting: TEST_SETTINGS.shared_buffers }]);
});
