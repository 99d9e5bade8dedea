// Lookups that every request makes (who its token's member is): lookups of one key that are under
// way at the same moment share one query. An add-in sends a member's calls together (up to two
// dozen in flight through a gateway), and each asked the database on its own; PGlite runs one
// query at a time, so the member's answers queued behind each other's lookups. Nothing is kept
// once the query answers: a lookup that starts later sees the database as it is then. A request
// that joins a query already on its way takes its answer, so a member removed (or a key revoked)
// while that one query runs is refused from the next lookup on.

export class SharedLookups<T> {
  private readonly underWay = new Map<string, Promise<T>>();

  /** What `lookup` gives for `key`, from the lookup of that key already under way if there is one. */
  get(key: string, lookup: () => Promise<T>): Promise<T> {
    const current = this.underWay.get(key);
    if (current !== undefined) return current;
    const started = lookup().finally(() => {
      if (this.underWay.get(key) === started) this.underWay.delete(key);
    });
    this.underWay.set(key, started);
    return started;
  }
}
