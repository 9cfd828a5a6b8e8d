// Every column that holds a value sealed with the SecretBox (SECRET_KEY), and the SQL `secret-key rotate` needs
// to re-encrypt them: read in id order a page at a time, replace one value only if it is still the one read.

import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../database.ts';

/** Text columns of table T (the only kind a sealed value can live in). */
type TextColumn<T extends keyof Database> = {
  [C in keyof Database[T]]: Database[T][C] extends string | null ? C : never;
}[keyof Database[T]] &
  string;

/** A column of a table that has an integer `id` (every table with sealed values has one). */
type SealedColumn = {
  [T in keyof Database]: Database[T] extends { id: unknown } ? { table: T; column: TextColumn<T> } : never;
}[keyof Database];

/**
 * Where the service stores `box.encrypt(…)` output. A new sealed column must be added here, or a key rotation
 * would leave it unreadable (test/cli/secret-key.test.ts fails when a file starts encrypting unnoticed).
 * Not here: OAuth confirm tokens, which are sealed but handed to the browser and never stored.
 */
export const SEALED_COLUMNS = [
  { table: 'webhook_subscriptions', column: 'secret' },
  { table: 'webhook_subscriptions', column: 'previous_secret' },
  { table: 'integration_connections', column: 'access_token_sealed' },
  { table: 'integration_connections', column: 'refresh_token_sealed' },
  { table: 'integration_oauth_states', column: 'verifier_sealed' },
  { table: 'workflow_connections', column: 'api_key_sealed' },
  { table: 'workflow_connections', column: 'signing_secret_sealed' },
  { table: 'export_configs', column: 'secrets' },
  { table: 'idempotency_keys', column: 'response_body' },
] as const satisfies readonly SealedColumn[];

export type SealedColumnName = (typeof SEALED_COLUMNS)[number];

/** The tables above seen loosely: the table and column names are data here, checked by the list's type. */
type LooseTables = Record<string, Record<string, string | number | null>>;
type LooseExecutor = Kysely<LooseTables> | Transaction<LooseTables>;

interface SealedValue {
  id: number;
  value: string;
}

export class SealedValuesStore {
  private readonly db: Kysely<LooseTables>;

  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Kysely<LooseTables>;
  }

  transaction<T>(work: (trx: Transaction<LooseTables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** How many rows hold a value in the column. */
  async count({ table, column }: SealedColumnName, db: LooseExecutor = this.db): Promise<number> {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(column, 'is not', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The next `limit` values after row `afterId`, in id order. */
  async page(
    { table, column }: SealedColumnName,
    afterId: number,
    limit: number,
    db: LooseExecutor = this.db,
  ): Promise<SealedValue[]> {
    const rows = await db
      .selectFrom(table)
      .select(['id', column])
      .where(column, 'is not', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: Number(row.id), value: String(row[column]) }));
  }

  /** Writes `next` where row `id` still holds `expected`; false when it changed meanwhile (or is gone). */
  async replace(
    { table, column }: SealedColumnName,
    id: number,
    expected: string,
    next: string,
    db: LooseExecutor = this.db,
  ): Promise<boolean> {
    const result = await db
      .updateTable(table)
      .set({ [column]: next })
      .where('id', '=', id)
      .where(column, '=', expected)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
