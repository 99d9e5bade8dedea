// Which database a setting names, and how a setting appears in messages (never with a password).
import { describeDatabase, openDatabase } from "../../../src/gateway/database/open-database";

test.each([
  {
    spec: "postgres://gateway:s3cret@db.example.com:5432/pcd",
    shown: "postgres://gateway:***@db.example.com:5432/pcd",
  },
  {
    spec: "postgresql://gateway:s3cret@db/pcd?sslmode=require",
    shown: "postgresql://gateway:***@db/pcd?sslmode=require",
  },
  { spec: "postgres://gateway@db/pcd", shown: "postgres://gateway@db/pcd" },
  { spec: "/var/lib/pcd-gateway", shown: "/var/lib/pcd-gateway" },
  { spec: "memory://", shown: "memory://" },
])("$spec is shown as $shown", ({ spec, shown }) => {
  expect(describeDatabase(spec)).toBe(shown);
});

test.each(["postgres://user:pw@127.0.0.1:1/none", "POSTGRESQL://user:pw@127.0.0.1:1/none"])(
  "%s opens Postgres (connecting only when first asked)",
  async (spec) => {
    const database = await openDatabase(spec);
    expect(database.kind).toBe("postgres");
    await database.close();
  },
);

test("an empty setting is refused", async () => {
  await expect(openDatabase(" ")).rejects.toThrow(/database setting is empty/);
});
