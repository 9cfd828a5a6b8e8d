import type { CreateTableBuilder } from 'kysely';

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
