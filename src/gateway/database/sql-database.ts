// The one interface the gateway's store speaks to a database, so the same SQL runs on PGlite
// (embedded, one process) and on Postgres (several gateway instances sharing one database).

/** Statements on one connection: the whole database, a transaction or a dedicated session. */
export interface SqlSession {
  /** One statement; parameters are $1, $2, …. */
  query<Row extends object>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** A script of statements without parameters (migrations). */
  execute(script: string): Promise<void>;
}

export interface SqlDatabase extends SqlSession {
  /**
   * "postgres": other gateway instances may share the database, so work that must not run twice
   * at once needs Postgres' locks; "pglite": this process is the only one.
   */
  readonly kind: "pglite" | "postgres";
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  /** Runs `work` on one connection held for its whole duration (session advisory locks live there). */
  dedicated<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
