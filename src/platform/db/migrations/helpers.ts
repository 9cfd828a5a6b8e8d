import { type CreateTableBuilder, sql } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** Auto-incrementing integer id: SQLite rowid alias, PostgreSQL bigserial (int8 is parsed back to number). */
export function withId<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: Dialect,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : table.addColumn('id', 'bigserial', (c) => c.primaryKey());
}

/**
 * Migration 0023's key folding, frozen as it ran (trends, interests and crisis keys): combining accents on
 * Latin letters dropped, as NFD spells them.
 */
export function foldAccentsOfKey(key: string): string {
  return key
    .normalize('NFD')
    .replace(/([a-z])[\u0300-\u036f]+/g, '$1')
    .normalize('NFC');
}

/** SQL: `column` holds a character outside printable ASCII (the only keys folding can change). */
export function nonAsciiKey(dialect: Dialect, column: string) {
  return dialect === 'postgres'
    ? sql<boolean>`${sql.ref(column)} ~ '[^ -~]'`
    : sql<boolean>`${sql.ref(column)} glob '*[^ -~]*'`;
}
