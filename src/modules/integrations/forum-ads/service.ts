// Forum ads: the conversion pixel selection, and conversion pushes delivered by the job worker with retries
// and a `conversion_id` that stays the same across retries so the provider can drop duplicates.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../platform/clock.ts';
import { isoString } from '../../../platform/clock.ts';
import { ApiError, badRequest, conflict } from '../../../platform/errors.ts';
import type { JobQueue } from '../../../platform/jobs/queue.ts';
import { type JobContext, RetryLaterError } from '../../../platform/jobs/worker.ts';
import type { OAuthService } from '../oauth.ts';
import type { RedditClient } from '../providers/reddit.ts';
import type { IntegrationsStore } from '../store.ts';

export const FORUM_ADS_DELIVERY_JOB = 'integrations.forum_ads.deliver';
const MAX_ATTEMPTS = 8;
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

interface ForumAdsSelection {
  account_id: string;
  pixel_id: string;
  event_name: string;
}

interface Log {
  warn(obj: object, msg: string): void;
}

export class ForumAdsService {
  constructor(
    private readonly deps: {
      store: IntegrationsStore;
      oauth: OAuthService;
      reddit: RedditClient;
      jobs: JobQueue;
      clock: Clock;
      poke: () => void;
      log?: Log;
    },
  ) {}

  async saveSelection(userId: number, selection: ForumAdsSelection): Promise<ForumAdsSelection> {
    const connection = await this.deps.oauth.requireConnection(userId, 'forum_ads');
    const saved = {
      account_id: selection.account_id,
      pixel_id: selection.pixel_id,
      event_name: selection.event_name,
    };
    await this.deps.store.setSelection(connection.id, saved, this.deps.clock.now());
    return saved;
  }

  async status(userId: number) {
    const connection = await this.deps.store.connection(userId, 'forum_ads');
    const selection = connection?.selection ? (JSON.parse(connection.selection) as ForumAdsSelection) : null;
    return {
      is_active: connection?.status === 'active',
      connected: connection !== undefined,
      account_id: selection?.account_id ?? null,
      pixel_id: selection?.pixel_id ?? null,
      event_name: selection?.event_name ?? null,
    };
  }

  async push(userId: number, body: { event_name: string; data: Record<string, unknown> }) {
    const currency = String(body.data.currency);
    if (!/^[A-Z]{3}$/.test(currency) || !CURRENCIES.has(currency)) {
      throw badRequest(
        'data.currency must be an ISO 4217 currency code such as USD or EUR.',
        'data.currency',
      );
    }
    const connection = await this.deps.oauth.requireConnection(userId, 'forum_ads');
    if (!connection.selection) {
      throw conflict(
        'Save a selection (account_id, pixel_id, event_name) before pushing conversions.',
        'selection_required',
      );
    }
    const now = this.deps.clock.now();
    const delivery = await this.deps.store.transaction(async (trx) => {
      const row = await this.deps.store.insertDelivery(
        {
          user_id: userId,
          event_name: body.event_name,
          data: JSON.stringify(body.data),
          conversion_id: `cw-${randomUUID()}`,
          status: 'queued',
          attempts: 0,
          response_status: null,
          error: null,
          created_at: now,
          delivered_at: null,
        },
        trx,
      );
      await this.deps.jobs.enqueue(trx, {
        type: FORUM_ADS_DELIVERY_JOB,
        payload: { delivery_id: row.id },
        maxAttempts: MAX_ATTEMPTS,
      });
      return row;
    });
    this.deps.poke();
    return { id: delivery.id, status: 'queued' as const };
  }

  async deliveries(userId: number, limit: number) {
    const rows = await this.deps.store.deliveries(userId, limit);
    return {
      deliveries: rows.map((d) => ({
        id: d.id,
        event_name: d.event_name,
        status: d.status as 'queued' | 'delivered' | 'failed',
        attempts: Number(d.attempts),
        response_status: d.response_status === null ? null : Number(d.response_status),
        error: d.error,
        created_at: isoString(Number(d.created_at))!,
        delivered_at: isoString(d.delivered_at === null ? null : Number(d.delivered_at)),
      })),
    };
  }

  /** The job: one delivery attempt. */
  async deliver(job: JobContext<{ delivery_id: number }>): Promise<void> {
    const { store, oauth, reddit, clock } = this.deps;
    const delivery = await store.delivery(Number(job.payload.delivery_id));
    if (delivery?.status !== 'queued') return;
    const attempts = Number(delivery.attempts) + 1;
    const last = job.attempts >= job.maxAttempts;
    const fail = (error: string, responseStatus: number | null = null) =>
      store.updateDelivery(delivery.id, {
        status: 'failed',
        attempts,
        error,
        response_status: responseStatus,
      });
    const retry = async (error: string, responseStatus: number | null, retryAfterSeconds?: number) => {
      if (last) return fail(error, responseStatus);
      await store.updateDelivery(delivery.id, { attempts, error, response_status: responseStatus });
      if (retryAfterSeconds !== undefined) {
        throw new RetryLaterError(error, clock.now() + retryAfterSeconds * 1000);
      }
      throw new Error(`forum ads delivery ${delivery.id}: ${error}`);
    };

    const connection = await store.connection(Number(delivery.user_id), 'forum_ads');
    const selection = connection?.selection ? (JSON.parse(connection.selection) as ForumAdsSelection) : null;
    if (!connection || !selection) return fail('The forum ads platform is no longer connected.');
    const data = JSON.parse(delivery.data) as Record<string, unknown>;
    const conversion = {
      eventName: delivery.event_name,
      eventAt: Number(delivery.created_at),
      conversionId: delivery.conversion_id,
      value: Number(data.value),
      currency: String(data.currency),
      extra: typeof data.item_count === 'number' ? { item_count: data.item_count } : {},
    };

    for (let refreshed = false; ; refreshed = true) {
      let token: string;
      try {
        token = await oauth.accessToken(connection, { force: refreshed });
      } catch (error) {
        if (error instanceof ApiError && error.status === 503) return retry(error.detail, null);
        return fail(error instanceof ApiError ? error.detail : 'The access token could not be obtained.');
      }
      const result = await reddit.sendConversion(token, selection.pixel_id, conversion);
      switch (result.kind) {
        case 'delivered':
          await store.updateDelivery(delivery.id, {
            status: 'delivered',
            attempts,
            response_status: result.status,
            error: null,
            delivered_at: clock.now(),
          });
          return;
        case 'unauthorized':
          // An access token revoked early: refresh once, then give up and mark the connection broken.
          if (!refreshed && connection.refresh_token_sealed) continue;
          await oauth.markBroken(connection, 'unauthorized');
          return fail('The forum ads platform refused the access token (HTTP 401).', result.status);
        case 'retry':
          return retry(result.reason, result.status, result.retryAfterSeconds);
        case 'refused':
          return fail(result.reason, result.status);
      }
    }
  }
}
