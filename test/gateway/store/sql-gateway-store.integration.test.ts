// The SQL store on a new PGlite database (opened once: it takes a second or more).
import "../support/pglite-outside-sandbox";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate } from "../../../src/gateway/database/migrations";
import { openDatabase } from "../../../src/gateway/database/open-database";
import { sqlGatewayStore } from "../../../src/gateway/store/sql-gateway-store";
import { newPGliteDirectory } from "../support/new-pglite-directory";
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
