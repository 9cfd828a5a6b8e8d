// Stored component check results behind /status/history.

import type { Transaction } from 'kysely';
import type { Database, DB } from '../../../database.ts';

interface CheckRow {
  component: string;
  status: string;
  detail: string | null;
  latency_ms: number | null;
  checked_at: number;
}

export class StatusStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insert(rows: CheckRow[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('status_checks').values(rows).execute();
  }

  since(from: number): Promise<CheckRow[]> {
    return this.db
      .selectFrom('status_checks')
      .select(['component', 'status', 'detail', 'latency_ms', 'checked_at'])
      .where('checked_at', '>=', from)
      .orderBy('checked_at', 'asc')
      .execute();
  }

  async pruneBefore(before: number): Promise<void> {
    await this.db.deleteFrom('status_checks').where('checked_at', '<', before).execute();
  }
}
