// PostgreSQL hands out serial ids when a row is inserted, not when it commits: a lower id can become visible
// after a higher one. A reader that walks a table by id and must skip none (the crisis detector over signals)
// cannot tell an id still in flight from one never used. An advisory lock per table settles it: every transaction
// inserting into the table holds the lock shared until it ends, and the reader reads the highest id holding it
// exclusive, which waits for the inserts under way (and holds new ones back for that one read).

/** The advisory lock key of inserts into `table` of the current schema (SQL text; `table` is a constant name). */
export function insertLockKey(table: string): string {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  // The high half marks these locks as Crestwatch's ("CRSW"), the low half is the table's own oid.
  return `(x'43525357'::bigint << 32) | '${table}'::regclass::oid::bigint`;
}
