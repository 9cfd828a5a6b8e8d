// All SQL of the OAuth integrations (chat, forum ads, social ads).

import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type {
  AdsAppliesTable,
  AdsPreviewsTable,
  ForumAdsDeliveriesTable,
  IntegrationConnectionsTable,
} from './tables.ts';

export type ConnectionRow = Selectable<IntegrationConnectionsTable>;
type DeliveryRow = Selectable<ForumAdsDeliveriesTable>;
type PreviewRow = Selectable<AdsPreviewsTable>;
export type ApplyRow = Selectable<AdsAppliesTable>;

function num<T extends { id: number }>(row: T): T {
  return { ...row, id: Number(row.id) };
}

export class IntegrationsStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  // ---------- OAuth states

  async insertState(row: {
    user_id: number;
    provider: string;
    state_hash: string;
    verifier_sealed: string | null;
    created_at: number;
    expires_at: number;
  }): Promise<void> {
    await this.db
      .insertInto('integration_oauth_states')
      .values({ ...row, used_at: null })
      .execute();
  }

  /** A state that is unused and unexpired (OAuthService adds its user's email). */
  findLiveState(provider: string, stateHash: string, now: number) {
    return this.db
      .selectFrom('integration_oauth_states')
      .select(['id', 'user_id', 'verifier_sealed'])
      .where('provider', '=', provider)
      .where('state_hash', '=', stateHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Marks a live state used; true only for the one caller that did it (single use under concurrency). */
  async consumeState(id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('integration_oauth_states')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async purgeStates(before: number): Promise<void> {
    await this.db.deleteFrom('integration_oauth_states').where('expires_at', '<', before).execute();
  }

  // ---------- connections

  async connection(userId: number, provider: string, executor: Executor = this.db) {
    const row = await executor
      .selectFrom('integration_connections')
      .selectAll()
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return row ? num(row) : undefined;
  }

  async connectionById(id: number) {
    const row = await this.db
      .selectFrom('integration_connections')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? num(row) : undefined;
  }

  /** Creates or replaces the tokens of a connection, keeping the user's selection and settings. */
  async upsertConnection(
    row: Omit<Insertable<IntegrationConnectionsTable>, 'selection' | 'settings'> & {
      settings: string | null;
    },
    executor: Executor = this.db,
  ): Promise<ConnectionRow> {
    const existing = await this.connection(row.user_id, row.provider, executor);
    if (existing) {
      await executor
        .updateTable('integration_connections')
        .set({
          status: row.status,
          broken_reason: null,
          access_token_sealed: row.access_token_sealed,
          refresh_token_sealed: row.refresh_token_sealed,
          token_expires_at: row.token_expires_at,
          scope: row.scope,
          account_id: row.account_id,
          account_name: row.account_name,
          details: row.details,
          settings: existing.settings ?? row.settings,
          updated_at: row.updated_at,
        })
        .where('id', '=', existing.id)
        .execute();
    } else {
      await executor
        .insertInto('integration_connections')
        .values({ ...row, selection: null })
        .execute();
    }
    const saved = await this.connection(row.user_id, row.provider, executor);
    if (!saved) throw new Error('connection vanished after upsert');
    return saved;
  }

  async updateTokens(
    id: number,
    tokens: {
      access_token_sealed: string;
      refresh_token_sealed: string | null;
      token_expires_at: number | null;
    },
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('integration_connections')
      .set({ ...tokens, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async markBroken(id: number, reason: string, now: number): Promise<void> {
    await this.db
      .updateTable('integration_connections')
      .set({ status: 'broken', broken_reason: reason.slice(0, 200), updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async setSelection(id: number, selection: unknown, now: number): Promise<void> {
    await this.db
      .updateTable('integration_connections')
      .set({ selection: JSON.stringify(selection), updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async setSettings(id: number, settings: unknown, now: number): Promise<void> {
    await this.db
      .updateTable('integration_connections')
      .set({ settings: JSON.stringify(settings), updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async deleteConnection(id: number, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('integration_connections').where('id', '=', id).execute();
  }

  /**
   * Active connections of a provider, in pages (chat alert fan-out); the caller leaves out those of disabled
   * accounts.
   */
  async activeConnections(provider: string, afterId: number, limit: number, userId?: number) {
    let query = this.db
      .selectFrom('integration_connections')
      .selectAll()
      .where('provider', '=', provider)
      .where('status', '=', 'active')
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    return (await query.execute()).map(num);
  }

  /** Records that an event was turned into a post for a connection; false when it already was. */
  async claimChatAlert(
    connectionId: number,
    eventId: string,
    now: number,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const row = await executor
      .insertInto('chat_alerts')
      .values({ connection_id: connectionId, event_id: eventId.slice(0, 300), created_at: now })
      .onConflict((oc) => oc.columns(['connection_id', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  // ---------- forum ads deliveries

  async insertDelivery(
    row: Insertable<ForumAdsDeliveriesTable>,
    executor: Executor = this.db,
  ): Promise<DeliveryRow> {
    const saved = await executor
      .insertInto('forum_ads_deliveries')
      .values(row)
      .returningAll()
      .executeTakeFirstOrThrow();
    return num(saved);
  }

  async delivery(id: number) {
    const row = await this.db
      .selectFrom('forum_ads_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? num(row) : undefined;
  }

  async updateDelivery(
    id: number,
    changes: Partial<Pick<DeliveryRow, 'status' | 'attempts' | 'response_status' | 'error' | 'delivered_at'>>,
  ): Promise<void> {
    await this.db.updateTable('forum_ads_deliveries').set(changes).where('id', '=', id).execute();
  }

  async deliveries(userId: number, limit: number) {
    const rows = await this.db
      .selectFrom('forum_ads_deliveries')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(num);
  }

  // ---------- ads previews and applies

  async insertPreview(row: Insertable<AdsPreviewsTable>): Promise<PreviewRow> {
    return num(await this.db.insertInto('ads_previews').values(row).returningAll().executeTakeFirstOrThrow());
  }

  async preview(userId: number, id: number) {
    const row = await this.db
      .selectFrom('ads_previews')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? num(row) : undefined;
  }

  async applyByPreview(previewId: number) {
    const row = await this.db
      .selectFrom('ads_applies')
      .selectAll()
      .where('preview_id', '=', previewId)
      .executeTakeFirst();
    return row ? num(row) : undefined;
  }

  async apply(userId: number, id: number) {
    const row = await this.db
      .selectFrom('ads_applies')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? num(row) : undefined;
  }

  /** Claims a preview for applying; undefined when another apply of it exists already (unique preview_id). */
  async claimApply(row: Insertable<AdsAppliesTable>): Promise<ApplyRow | undefined> {
    const saved = await this.db
      .insertInto('ads_applies')
      .values(row)
      .onConflict((oc) => oc.column('preview_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    return saved ? num(saved) : undefined;
  }

  async updateApply(
    id: number,
    fromStatus: string,
    changes: Partial<Pick<ApplyRow, 'status' | 'changes' | 'rolled_back_at'>>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('ads_applies')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', fromStatus)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async deleteApply(id: number): Promise<void> {
    await this.db.deleteFrom('ads_applies').where('id', '=', id).execute();
  }
}
