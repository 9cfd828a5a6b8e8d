// SQL for the workflow integration: one connection row per user (selection included) and push deliveries.

import type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, DB, Executor } from '../../../database.ts';
import type { WorkflowConnectionsTable, WorkflowDeliveriesTable } from './tables.ts';

export type ConnectionRow = Selectable<WorkflowConnectionsTable>;
type DeliveryRow = Selectable<WorkflowDeliveriesTable>;
type NewDelivery = Insertable<WorkflowDeliveriesTable>;

export class WorkflowStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  find(userId: number): Promise<ConnectionRow | undefined> {
    return this.db
      .selectFrom('workflow_connections')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Creates or replaces the user's connection; the selection is kept only when the URL stays the same. A
   * replacement is a new connection (new key and signing secret), so it takes the new `created_at`.
   */
  async upsert(row: Insertable<WorkflowConnectionsTable>): Promise<void> {
    await this.transaction(async (trx) => {
      const existing = await trx
        .selectFrom('workflow_connections')
        .select(['id', 'api_base_url'])
        .where('user_id', '=', row.user_id)
        .executeTakeFirst();
      if (!existing) {
        await trx.insertInto('workflow_connections').values(row).execute();
        return;
      }
      const keepSelection = existing.api_base_url === row.api_base_url;
      const update: Updateable<WorkflowConnectionsTable> = {
        api_base_url: row.api_base_url,
        api_key_sealed: row.api_key_sealed,
        signing_secret_sealed: row.signing_secret_sealed,
        include_metadata: row.include_metadata,
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
      if (!keepSelection) {
        Object.assign(update, {
          workflow_id: null,
          workflow_name: null,
          webhook_url: null,
          default_event: null,
          selected_at: null,
        });
      }
      await trx.updateTable('workflow_connections').set(update).where('id', '=', existing.id).execute();
    });
  }

  async select(
    userId: number,
    selection: Pick<
      WorkflowConnectionsTable,
      'workflow_id' | 'workflow_name' | 'webhook_url' | 'default_event' | 'selected_at' | 'updated_at'
    >,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('workflow_connections')
      .set(selection)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(userId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('workflow_connections')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Users whose selection pushes this default event automatically (all users, or only `userId`); the caller
   * leaves out disabled accounts.
   */
  subscribers(defaultEvent: string, userId?: number): Promise<{ user_id: number }[]> {
    let query = this.db
      .selectFrom('workflow_connections')
      .select('user_id')
      .where('default_event', '=', defaultEvent)
      .where('webhook_url', 'is not', null);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    return query.orderBy('user_id').execute();
  }

  async insertDelivery(row: NewDelivery, executor: Executor = this.db): Promise<DeliveryRow | undefined> {
    return executor
      .insertInto('workflow_deliveries')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'event_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  findDelivery(id: number): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom('workflow_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async updateDelivery(id: number, changes: Updateable<WorkflowDeliveriesTable>): Promise<void> {
    await this.db.updateTable('workflow_deliveries').set(changes).where('id', '=', id).execute();
  }

  listDeliveries(userId: number, limit: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('workflow_deliveries')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
