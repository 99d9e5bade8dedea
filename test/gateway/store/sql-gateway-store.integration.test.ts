// The SQL store on an in-memory PGlite (opened once: it takes a few seconds).
import "../support/pglite-outside-sandbox";
import { migrate } from "../../../src/gateway/database/migrations";
import { openDatabase } from "../../../src/gateway/database/open-database";
import { sqlGatewayStore } from "../../../src/gateway/store/sql-gateway-store";
import { storeChecks, type StoreUnderTest } from "./store-checks";

let subject: StoreUnderTest;

beforeAll(async () => {
  const database = await openDatabase("memory://");
  await migrate(database);
  subject = { database, store: sqlGatewayStore(database) };
});

afterAll(async () => {
  await subject?.store.close();
});

storeChecks(() => subject);
