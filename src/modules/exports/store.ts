// All SQL of the exports module. Methods that may run inside a transaction take the executor last.
import type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { ExportConfigsTable, ExportHistoryTable } from './tables.ts';

export type ConfigRow = Selectable<ExportConfigsTable>;
export type HistoryRow = Selectable<ExportHistoryTable>;

export class ExportsStore {
  constructor(readonly db: DB) {}

  transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  insertConfig(row: Insertable<ExportConfigsTable>, executor: Executor = this.db): Promise<ConfigRow> {
    return executor.insertInto('export_configs').values(row).returningAll().executeTakeFirstOrThrow();
  }

  listConfigs(userId: number, executor: Executor = this.db): Promise<ConfigRow[]> {
    return executor
      .selectFrom('export_configs')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  async countConfigs(userId: number, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('export_configs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  findConfigForUser(userId: number, id: number, executor: Executor = this.db) {
    return executor
      .selectFrom('export_configs')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  findConfig(id: number, executor: Executor = this.db) {
    return executor.selectFrom('export_configs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Replaces the settings of the caller's configuration in place (its id, owner, creation time and history
   * stay). Undefined when the caller has no configuration with that id: nothing is changed then.
   */
  updateConfigForUser(
    userId: number,
    id: number,
    patch: Omit<Updateable<ExportConfigsTable>, 'id' | 'user_id' | 'created_at'>,
    executor: Executor = this.db,
  ): Promise<ConfigRow | undefined> {
    return executor
      .updateTable('export_configs')
      .set(patch)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes the caller's configuration; its history stays, detached. False when there was none. */
  async deleteConfigForUser(userId: number, id: number, executor: Executor = this.db): Promise<boolean> {
    await executor
      .updateTable('export_history')
      .set({ config_id: null })
      .where('config_id', '=', id)
      .where('user_id', '=', userId)
      .execute();
    const result = await executor
      .deleteFrom('export_configs')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Active configurations whose next run has come, oldest first, the page after `after` (keyset on next_run_at
   * and id). A `none` schedule never has a next run; it is also left out by name, so that no row can ever bring
   * it here. The caller leaves out those of disabled accounts.
   */
  dueConfigs(
    now: number,
    limit: number,
    after?: { next_run_at: number; id: number },
    executor: Executor = this.db,
  ): Promise<ConfigRow[]> {
    return executor
      .selectFrom('export_configs')
      .selectAll()
      .where('is_active', '=', 1)
      .where('next_run_at', '<=', now)
      .where('schedule', '!=', 'none')
      .$if(after !== undefined, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb('next_run_at', '>', after!.next_run_at),
            eb.and([eb('next_run_at', '=', after!.next_run_at), eb('id', '>', after!.id)]),
          ]),
        ),
      )
      .orderBy('next_run_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Moves a configuration's next run from `from` to `to`: true for exactly one caller however many instances
   * race for the same run (compare-and-set on next_run_at in one statement).
   */
  async claimRun(id: number, from: number, to: number, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('export_configs')
      .set({ next_run_at: to })
      .where('id', '=', id)
      .where('is_active', '=', 1)
      .where('next_run_at', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A run of the configuration that is not over (queued, running, or failed and waiting for a retry). */
  openRun(configId: number, executor: Executor = this.db) {
    return executor
      .selectFrom('export_history')
      .select('id')
      .where('config_id', '=', configId)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
  }

  insertHistory(row: Insertable<ExportHistoryTable>, executor: Executor = this.db): Promise<HistoryRow> {
    return executor.insertInto('export_history').values(row).returningAll().executeTakeFirstOrThrow();
  }

  findHistory(id: number, executor: Executor = this.db) {
    return executor.selectFrom('export_history').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Ends the runs of a configuration that are queued or waiting for a retry (not one running now); returns them
   * as they were before (call inside a transaction).
   */
  async closeWaitingRuns(
    configId: number,
    patch: Updateable<ExportHistoryTable>,
    executor: Executor = this.db,
  ): Promise<HistoryRow[]> {
    const waiting = await executor
      .selectFrom('export_history')
      .selectAll()
      .where('config_id', '=', configId)
      .where('completed_at', 'is', null)
      .where('status', '!=', 'running')
      .execute();
    if (waiting.length === 0) return [];
    await executor
      .updateTable('export_history')
      .set(patch)
      .where(
        'id',
        'in',
        waiting.map((run) => run.id),
      )
      .where('completed_at', 'is', null)
      .execute();
    return waiting;
  }

  /** Changes a run that is not over yet; false when it already ended (nothing is changed). */
  async updateOpenHistory(
    id: number,
    patch: Updateable<ExportHistoryTable>,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('export_history')
      .set(patch)
      .where('id', '=', id)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async listHistory(userId: number, configId: number | undefined, limit: number, offset: number) {
    let page = this.db.selectFrom('export_history').selectAll().where('user_id', '=', userId);
    let count = this.db
      .selectFrom('export_history')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId);
    if (configId !== undefined) {
      page = page.where('config_id', '=', configId);
      count = count.where('config_id', '=', configId);
    }
    const [rows, total] = await Promise.all([
      page.orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }
}
