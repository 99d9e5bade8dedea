// A database of its own on Debian's Postgres, for the tests that need a real server (several
// gateway instances on one database). Where Postgres is not installed those tests are skipped,
// except in CI (CI=true), which installs it: there its absence fails them.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { promisify } from "node:util";

const run = promisify(execFile);
const PG_CTLCLUSTER = "/usr/bin/pg_ctlcluster";

export interface TestPostgres {
  /** postgresql://role:password@127.0.0.1:port/database, for this test file alone. */
  url: string;
  /** Drops the database and its role (the cluster keeps running for other test files). */
  drop(): Promise<void>;
}

export const postgresInstalled = (): boolean => existsSync(PG_CTLCLUSTER);

/** In CI a missing Postgres is a failure, not a reason to skip. */
export const postgresRequired = (): boolean => process.env.CI === "true";

export const POSTGRES_MISSING = `Debian's postgresql is not installed (no ${PG_CTLCLUSTER})`;

// Postgres refuses to run as root: its own commands run as the postgres user.
async function psql(sql: string): Promise<string> {
  const { stdout } = await run("runuser", [
    "-u",
    "postgres",
    "--",
    "psql",
    "-v",
    "ON_ERROR_STOP=1",
    "-Atc",
    sql,
  ]);
  return stdout.trim();
}

interface Cluster {
  version: string;
  name: string;
  online: boolean;
}

async function firstCluster(): Promise<Cluster> {
  const { stdout } = await run("pg_lsclusters", ["--no-header"]);
  const [version, name, , status] = stdout.trim().split("\n")[0]?.split(/\s+/) ?? [];
  if (version === undefined || name === undefined)
    throw new Error("Postgres is installed but has no cluster (pg_lsclusters lists none).");
  return { version, name, online: status === "online" };
}

/** A fresh database and role on the local cluster (started if down); null when Postgres is not installed. */
export async function startTestPostgres(): Promise<TestPostgres | null> {
  if (!postgresInstalled()) {
    if (postgresRequired()) throw new Error(`${POSTGRES_MISSING}, and CI requires it.`);
    return null;
  }
  const cluster = await firstCluster();
  if (!cluster.online) await run(PG_CTLCLUSTER, [cluster.version, cluster.name, "start"]);
  const port = await psql("show port");
  const name = `pcd_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const password = randomBytes(16).toString("hex");
  await psql(`create role ${name} login password '${password}'`);
  await psql(`create database ${name} owner ${name}`);
  return {
    url: `postgresql://${name}:${password}@127.0.0.1:${port}/${name}`,
    drop: async () => {
      await psql(`drop database if exists ${name} with (force)`);
      await psql(`drop role if exists ${name}`);
    },
  };
}
