// The workflow integration (n8n): connect with the tool's key, list its workflows, select one whose Webhook
// trigger receives pushes, push signed events by hand (optionally gated by crisis events) and automatically
// for the selection's `default_event`. Knows nothing of HTTP routing.
import { API_VERSION } from '../../../config.ts';
import type { Actor, AuditLog } from '../../../platform/audit.ts';
import { type Clock, isoString } from '../../../platform/clock.ts';
import type { SecretBox } from '../../../platform/crypto.ts';
import { ApiError, badRequest, conflict, notFound } from '../../../platform/errors.ts';
import type { EventSubscriber } from '../../../platform/events.ts';
import type { JobContext, JobQueue, JobWorker } from '../../../platform/jobs/index.ts';
import { RetryLaterError } from '../../../platform/jobs/worker.ts';
import { type OutboundClient, OutboundError } from '../../../platform/outbound.ts';
import { retryAfterMs } from '../../../platform/retry.ts';
import { generateWebhookSecret, signatureHeaders } from '../../../platform/signing.ts';
import { type AlertEvent, type AlertEvents, CRISIS_EVENT_TYPES } from '../../alerts/index.ts';
import { TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT } from '../../trends/index.ts';
import {
  type N8nClient,
  normaliseBaseUrl,
  productionWebhookUrl,
  providerFailure,
  webhookTriggers,
} from './n8n.ts';
import type { ConnectionRow, WorkflowStore } from './store.ts';

const WORKFLOW_PUSH_JOB = 'workflow.push';
const PUSH_MAX_ATTEMPTS = 8;
const MAX_RETRY_AFTER_MS = 3600_000;

/** `default_event` values and the domain events each pushes automatically. */
const DEFAULT_EVENTS = {
  trend_lifecycle: [TREND_LIFECYCLE_EVENT],
  trend_velocity: [TREND_VELOCITY_EVENT],
  crisis_event: CRISIS_EVENT_TYPES,
} as const satisfies Record<string, readonly (keyof AlertEvents)[]>;
type DefaultEvent = keyof typeof DEFAULT_EVENTS;
export const DEFAULT_EVENT_NAMES = Object.keys(DEFAULT_EVENTS) as DefaultEvent[];

/** What the crisis module answers: the caller's active crisis event (severity ≥ high) that blocks a trend. */
interface CrisisGate {
  blockingEventFor(
    userId: number,
    trend: { id: number; title: string },
  ): Promise<{ id: number; title: string; severity: string } | null>;
}

interface WorkflowDeps {
  store: WorkflowStore;
  /** Trends by id (the trends module's TrendsService). */
  trends: { find(id: number): Promise<{ id: number; title: string } | undefined> };
  /** Which users' accounts are enabled (the accounts module's): a disabled one gets nothing pushed. */
  users: { activeAmong(userIds: readonly number[]): Promise<Set<number>> };
  client: N8nClient;
  outbound: OutboundClient;
  box: SecretBox;
  clock: Clock;
  jobs: JobQueue;
  audit: AuditLog;
  crisis: CrisisGate;
  /** Called after automatic pushes are queued (the worker's poke). */
  onQueued?: () => void;
}

interface PushJob {
  delivery_id: number;
  user_id: number;
  event: string;
  data: Record<string, unknown>;
}

export class WorkflowService {
  constructor(private readonly deps: WorkflowDeps) {}

  private async connection(userId: number): Promise<ConnectionRow> {
    const row = await this.deps.store.find(userId);
    if (!row) {
      throw conflict(
        'No workflow tool is connected; POST /api/integrations/workflow/connect first.',
        'workflow_not_connected',
      );
    }
    return row;
  }

  /** Parses, checks and normalises a base URL (400 naming `field`). */
  private async baseUrl(raw: string, field: string): Promise<string> {
    const url = await this.deps.outbound.policy.assertAllowed(raw.trim(), field);
    if (url.search || url.hash) throw badRequest(`${field} must not have a query or a fragment.`, field);
    return normaliseBaseUrl(url);
  }

  async connect(actor: Actor, input: { api_key: string; api_base_url: string; include_metadata?: boolean }) {
    const base = await this.baseUrl(input.api_base_url, 'api_base_url');
    await this.deps.client.verify(base, input.api_key);
    const secret = generateWebhookSecret();
    const now = this.deps.clock.now();
    await this.deps.store.upsert({
      user_id: actor.userId,
      api_base_url: base,
      api_key_sealed: this.deps.box.encrypt(input.api_key),
      signing_secret_sealed: this.deps.box.encrypt(secret),
      include_metadata: input.include_metadata ? 1 : 0,
      created_at: now,
      updated_at: now,
      workflow_id: null,
      workflow_name: null,
      webhook_url: null,
      default_event: null,
      selected_at: null,
    });
    await this.deps.audit.record(
      actor.userId,
      actor,
      'integration.connected',
      'integration',
      'workflow',
      `Workflow tool connected at ${base}.`,
    );
    return {
      connected: true as const,
      api_base_url: base,
      include_metadata: Boolean(input.include_metadata),
      signing_secret: secret,
    };
  }

  async status(userId: number) {
    const row = await this.deps.store.find(userId);
    if (!row) {
      return {
        connected: false,
        api_base_url: null,
        include_metadata: false,
        selection: null,
        connected_at: null,
      };
    }
    return {
      connected: true,
      api_base_url: row.api_base_url,
      include_metadata: row.include_metadata === 1,
      selection: selectionView(row),
      // Not updated_at: saving a selection changes the row, not when it was connected.
      connected_at: isoString(row.created_at),
    };
  }

  async workflows(userId: number) {
    const row = await this.connection(userId);
    const key = this.deps.box.decrypt(row.api_key_sealed);
    return { workflows: await this.deps.client.listWorkflows(row.api_base_url, key) };
  }

  async select(
    userId: number,
    input: { workflow_id: string; workflow_name: string; default_event: DefaultEvent; api_base_url: string },
  ) {
    const row = await this.connection(userId);
    let given: string;
    try {
      given = normaliseBaseUrl(this.deps.outbound.policy.parse(input.api_base_url.trim(), 'api_base_url'));
    } catch (error) {
      throw error instanceof ApiError ? error : badRequest('api_base_url is not a URL.', 'api_base_url');
    }
    // The stored key goes only to the URL it was given for.
    if (given !== row.api_base_url) {
      throw badRequest(
        `api_base_url must be the connected workflow tool (${row.api_base_url}); to use another one, connect it with its own key first.`,
        'api_base_url',
        'api_base_url_mismatch',
      );
    }
    const key = this.deps.box.decrypt(row.api_key_sealed);
    const workflow = await this.deps.client.getWorkflow(row.api_base_url, key, input.workflow_id);
    if (!workflow) {
      throw badRequest(
        `workflow_id ${input.workflow_id} is not a workflow of the connected tool.`,
        'workflow_id',
        'workflow_not_found',
      );
    }
    const triggers = webhookTriggers(workflow.nodes);
    if (triggers.length === 0) {
      throw badRequest(
        `workflow_id ${input.workflow_id} has no enabled Webhook trigger node to push to; add one (HTTP Method POST).`,
        'workflow_id',
        'workflow_without_webhook',
      );
    }
    const trigger = triggers.find((t) => t.methods.includes('POST'));
    if (!trigger) {
      throw badRequest(
        `workflow_id ${input.workflow_id}'s Webhook trigger accepts ${triggers[0]!.methods.join(', ')} only; set its HTTP Method to POST.`,
        'workflow_id',
        'workflow_webhook_not_post',
      );
    }
    const now = this.deps.clock.now();
    const selection = {
      workflow_id: workflow.id,
      workflow_name: input.workflow_name,
      webhook_url: productionWebhookUrl(row.api_base_url, trigger.path),
      default_event: input.default_event,
      selected_at: now,
      updated_at: now,
    };
    if (!(await this.deps.store.select(userId, selection))) {
      throw conflict('The workflow connection was removed meanwhile.', 'workflow_not_connected');
    }
    return {
      ...selectionView({ ...row, ...selection })!,
      api_base_url: row.api_base_url,
      active: workflow.active,
    };
  }

  async disconnect(actor: Actor): Promise<void> {
    const row = await this.deps.store.find(actor.userId);
    // n8n has no API to revoke a key: forgetting it is all there is to do.
    if (!row || !(await this.deps.store.delete(actor.userId))) {
      throw notFound('No workflow tool is connected.');
    }
    await this.deps.audit.record(
      actor.userId,
      actor,
      'integration.disconnected',
      'integration',
      'workflow',
      `Workflow tool at ${row.api_base_url} disconnected.`,
    );
  }

  /** A push by hand: gated when asked, sent once now, recorded as a delivery. */
  async push(userId: number, input: { event: string; data: object; gate?: { trend_id: number } }) {
    const row = await this.connection(userId);
    if (!row.webhook_url) {
      throw conflict(
        'No workflow is selected; PUT /api/integrations/workflow/selection first.',
        'workflow_not_selected',
      );
    }
    if (input.gate) await this.checkGate(userId, input.gate.trend_id);
    const delivery = await this.deps.store.insertDelivery({
      user_id: userId,
      event: input.event,
      origin: 'manual',
      event_id: null,
      status: 'queued',
      attempts: 0,
      response_status: null,
      error: null,
      created_at: this.deps.clock.now(),
      delivered_at: null,
    });
    const id = delivery!.id;
    const outcome = await this.send(row, id, 'manual', input.event, input.data as Record<string, unknown>, 1);
    if (outcome.error) {
      throw providerFailure(outcome.error, 'the push');
    }
    return { delivered: outcome.delivered, status_code: outcome.status, execution_id: id };
  }

  private async checkGate(userId: number, trendId: number): Promise<void> {
    const found = await this.deps.trends.find(trendId);
    if (!found) throw notFound(`No trend has id ${trendId}.`);
    const trend = { id: found.id, title: found.title };
    const blocking = await this.deps.crisis.blockingEventFor(userId, trend);
    if (blocking) {
      throw conflict(
        `Push held back: your active crisis event ${blocking.id} ("${blocking.title}", severity ${blocking.severity}) concerns trend ${trend.id} ("${trend.title}").`,
        'blocked_by_crisis',
      );
    }
  }

  /** One attempt; updates the delivery row. `error` is set when there was no HTTP answer. */
  private async send(
    row: ConnectionRow,
    deliveryId: number,
    origin: 'manual' | 'automatic',
    event: string,
    data: Record<string, unknown>,
    attempt: number,
  ): Promise<{ delivered: boolean; status: number | null; error?: OutboundError; retryAfterMs?: number }> {
    const now = this.deps.clock.now();
    const payload: Record<string, unknown> = { event, data, sent_at: isoString(now) };
    if (row.include_metadata === 1) {
      payload.metadata = {
        source: 'crestwatch',
        version: API_VERSION,
        user_id: row.user_id,
        delivery_id: deliveryId,
        origin,
      };
    }
    const body = JSON.stringify(payload);
    const secret = this.deps.box.decrypt(row.signing_secret_sealed);
    const headers = signatureHeaders([secret], String(deliveryId), Math.floor(now / 1000), body);
    try {
      const response = await this.deps.client.push(row.webhook_url!, body, headers);
      const delivered = response.status >= 200 && response.status < 300;
      await this.deps.store.updateDelivery(deliveryId, {
        status: delivered ? 'delivered' : 'failed',
        attempts: attempt,
        response_status: response.status,
        error: delivered ? null : `The workflow tool answered HTTP ${response.status}.`,
        delivered_at: delivered ? this.deps.clock.now() : null,
      });
      return { delivered, status: response.status, retryAfterMs: retryAfter(response.headers, now) };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      await this.deps.store.updateDelivery(deliveryId, {
        status: 'failed',
        attempts: attempt,
        response_status: null,
        error: error.message,
      });
      return { delivered: false, status: null, error };
    }
  }

  // ---------- automatic pushes

  /** Listens to the domain events each `default_event` names and runs the push jobs they queue. */
  register(events: EventSubscriber<AlertEvents>, worker: JobWorker): void {
    for (const [name, types] of Object.entries(DEFAULT_EVENTS) as [
      DefaultEvent,
      readonly (keyof AlertEvents)[],
    ][]) {
      for (const type of types) {
        events.on(type, async (event) => {
          await this.queueAutomatic(name, event);
        });
      }
    }
    worker.register<PushJob>(WORKFLOW_PUSH_JOB, (job) => this.runPushJob(job));
  }

  /** Queues one push per subscribed user; at-least-once events are deduped on (user, event id). */
  async queueAutomatic(name: DefaultEvent, event: AlertEvent): Promise<number> {
    const owner = 'user_id' in event.data ? event.data.user_id : undefined;
    if (owner !== undefined && !Number.isInteger(owner)) return 0;
    const subscribed = await this.deps.store.subscribers(name, owner);
    const enabled = await this.deps.users.activeAmong(subscribed.map((s) => s.user_id));
    const subscribers = subscribed.filter((s) => enabled.has(s.user_id));
    const data = {
      ...event.data,
      event_type: event.type,
      event_id: event.id,
      timestamp: isoString(event.occurred_at),
    };
    let queued = 0;
    for (const { user_id } of subscribers) {
      await this.deps.store.transaction(async (trx) => {
        const delivery = await this.deps.store.insertDelivery(
          {
            user_id,
            event: name,
            origin: 'automatic',
            event_id: event.id,
            status: 'queued',
            attempts: 0,
            response_status: null,
            error: null,
            created_at: this.deps.clock.now(),
            delivered_at: null,
          },
          trx,
        );
        if (!delivery) return;
        const payload: PushJob = { delivery_id: delivery.id, user_id, event: name, data };
        await this.deps.jobs.enqueue(trx, {
          type: WORKFLOW_PUSH_JOB,
          payload,
          maxAttempts: PUSH_MAX_ATTEMPTS,
        });
        queued++;
      });
    }
    if (queued > 0) this.deps.onQueued?.();
    return queued;
  }

  async runPushJob(job: JobContext<PushJob>): Promise<void> {
    const { delivery_id: deliveryId, user_id: userId, event, data } = job.payload;
    const delivery = await this.deps.store.findDelivery(deliveryId);
    if (!delivery || delivery.status === 'delivered') return;
    const row = await this.deps.store.find(userId);
    if (!row?.webhook_url || row.default_event !== event) {
      await this.deps.store.updateDelivery(deliveryId, {
        status: 'failed',
        error: 'The workflow selection was removed or changed before delivery.',
      });
      return;
    }
    const outcome = await this.send(row, deliveryId, 'automatic', event, data, job.attempts);
    if (outcome.delivered) return;
    const retryable =
      (outcome.error && outcome.error.kind !== 'refused') ||
      outcome.status === 429 ||
      (outcome.status !== null && outcome.status >= 500) ||
      outcome.status === 408;
    if (!retryable || job.attempts >= job.maxAttempts) return;
    // Still to be retried: the row says so.
    await this.deps.store.updateDelivery(deliveryId, { status: 'queued' });
    const reason = outcome.error?.message ?? `HTTP ${outcome.status}`;
    if (outcome.retryAfterMs !== undefined) {
      throw new RetryLaterError(
        `workflow push not delivered (${reason})`,
        this.deps.clock.now() + outcome.retryAfterMs,
      );
    }
    throw new Error(`workflow push not delivered (${reason})`);
  }

  async deliveries(userId: number, limit: number) {
    const rows = await this.deps.store.listDeliveries(userId, limit);
    return {
      deliveries: rows.map((r) => ({
        id: r.id,
        event: r.event,
        origin: r.origin as 'manual' | 'automatic',
        status: r.status as 'queued' | 'delivered' | 'failed',
        attempts: r.attempts,
        response_status: r.response_status,
        error: r.error,
        created_at: isoString(r.created_at)!,
        delivered_at: isoString(r.delivered_at),
      })),
    };
  }
}

function selectionView(row: ConnectionRow) {
  if (!row.workflow_id || !row.webhook_url) return null;
  return {
    workflow_id: row.workflow_id,
    workflow_name: row.workflow_name ?? '',
    default_event: row.default_event as DefaultEvent,
    webhook_url: row.webhook_url,
    selected_at: isoString(row.selected_at)!,
  };
}

/** Retry-After in ms from now, capped at an hour; undefined (the job's own backoff) when absent. */
function retryAfter(headers: Record<string, string | string[] | undefined>, now: number): number | undefined {
  const ms = retryAfterMs(headers['retry-after'], now);
  return ms === undefined ? undefined : Math.min(ms, MAX_RETRY_AFTER_MS);
}
