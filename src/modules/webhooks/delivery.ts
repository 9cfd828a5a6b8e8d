// Signed delivery: one job per attempt, retried with backoff for a day; executions, redelivery and test sends.
// Attempts run as jobs are read in batches and their successes written in batches (batching.ts); a destination
// with its limit of requests in flight sends the job back to the queue for a moment instead of holding a slot.
import { API_VERSION } from '../../config.ts';
import type { Executor } from '../../database.ts';
import { isoString } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { DeferJobError, type JobContext } from '../../platform/jobs/worker.ts';
import { OutboundError, type OutboundResponse } from '../../platform/outbound.ts';
import { type BackoffPolicy, backoffMs, retryAfterMs } from '../../platform/retry.ts';
import { signatureHeaders } from '../../platform/signing.ts';
import { AttemptLoader, SuccessWriter } from './batching.ts';
import type { WebhooksDeps } from './deps.ts';
import { TEST_EVENT, testBody } from './payloads.ts';
import type { AttemptSubscription, ExecutionView } from './store.ts';
import { ownedSubscription } from './subscriptions.ts';

export const DELIVER_JOB = 'webhook.deliver';
export const USER_AGENT = `Crestwatch-Webhooks/${API_VERSION}`;
/** Retries stop this long after the first attempt; a subscription failing this long is disabled. */
const RETRY_WINDOW_MS = 86_400_000;
const TIMEOUT_MS = 10_000;
/** ~5 s, 10 s, 20 s … capped at 2 h, each between half and all of that. */
const RETRY_BACKOFF: BackoffPolicy = { baseMs: 5_000, capMs: 2 * 3_600_000, jitter: [0.5, 1] };
/** How long a queued attempt waits for its destination's free slot before going back to the queue. */
const SLOT_WAIT_MS = 250;
/** A deferred attempt comes back after the destination's expected wait, within these bounds, times 1–2. */
const DEFER_MIN_MS = 100;
const DEFER_MAX_MS = 60_000;
/** Decrypted signing secrets kept in memory (each subscription has one, two during a rotation). */
const OPENED_SECRETS = 1000;

export interface DeliverPayload {
  execution_id: number;
  /** Epoch ms after which a failed attempt is not retried. */
  retry_until: number;
}

interface AttemptOptions {
  retryUntil: number;
  /** False for test sends: they never disable a subscription nor reset its failures. */
  countsForSubscription: boolean;
  /** Run as a job: deferred while the destination is busy, its success written in a batch. */
  queued: boolean;
  /** The worker's `idle`: the request waits without holding a job slot. */
  idle?: <T>(work: Promise<T>) => Promise<T>;
}

type Outcome =
  | { kind: 'succeeded'; response: OutboundResponse }
  | {
      kind: 'failed';
      retry: boolean;
      disable?: string;
      response?: OutboundResponse;
      error: string;
      /** Epoch ms the receiver asked us to wait for (`Retry-After`). */
      retryAt?: number;
    };

function attemptJob(executionId: number, runAt: number, retryUntil: number) {
  return {
    type: DELIVER_JOB,
    payload: { execution_id: executionId, retry_until: retryUntil } satisfies DeliverPayload,
    runAt,
    // Each attempt is its own job; extra job attempts only cover a crash mid-attempt.
    maxAttempts: 5,
  };
}

function executionView(row: ExecutionView) {
  return {
    id: Number(row.id),
    event_id: row.event_id,
    event: row.event,
    attempt: Number(row.attempt),
    status: row.status as 'pending' | 'succeeded' | 'failed',
    response_status: row.response_status === null ? null : Number(row.response_status),
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
    error: row.error,
    created_at: isoString(Number(row.created_at))!,
    next_attempt_at: isoString(row.next_attempt_at === null ? null : Number(row.next_attempt_at)),
  };
}

export class WebhookDelivery {
  private readonly random: () => number;
  private readonly loader: AttemptLoader;
  private readonly successes: SuccessWriter;
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly deps: Pick<
      WebhooksDeps,
      'store' | 'clock' | 'box' | 'outbound' | 'jobs' | 'poke' | 'publicBaseUrl' | 'random'
    >,
    /** A subscription was disabled: the triggering side's cached velocity thresholds are stale. */
    private readonly disabled: () => void,
  ) {
    this.random = deps.random ?? Math.random;
    this.loader = new AttemptLoader(deps.store);
    this.successes = new SuccessWriter(deps.store, deps.clock);
  }

  private get store() {
    return this.deps.store;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  /** Queues attempt 1 of a recorded delivery, in the caller's transaction (the caller pokes the worker). */
  async queueFirstAttempt(deliveryId: number, subscriptionId: number, now: number, trx: Executor) {
    await this.queueFirstAttempts([{ deliveryId, subscriptionId }], now, trx);
  }

  /** `queueFirstAttempt` for many deliveries: a few multi-row statements, not a few per delivery. */
  async queueFirstAttempts(
    deliveries: { deliveryId: number; subscriptionId: number }[],
    now: number,
    trx: Executor,
  ): Promise<void> {
    if (deliveries.length === 0) return;
    const executionIds = await this.store.insertExecutions(
      deliveries.map((d) => ({
        delivery_id: d.deliveryId,
        subscription_id: d.subscriptionId,
        attempt: 1,
        status: 'pending',
        response_status: null,
        duration_ms: null,
        error: null,
        created_at: now,
        next_attempt_at: now,
      })),
      trx,
    );
    await this.deps.jobs.enqueueMany(
      trx,
      deliveries.map((d) => attemptJob(executionIds.get(d.deliveryId)!, now, now + RETRY_WINDOW_MS)),
    );
  }

  private enqueueAttempt(executionId: number, runAt: number, retryUntil: number, trx: Executor) {
    return this.deps.jobs.enqueue(trx, attemptJob(executionId, runAt, retryUntil));
  }

  async executions(userId: number, id: number, limit = 20) {
    await ownedSubscription(this.store, userId, id);
    return { executions: (await this.store.listExecutions(id, limit)).map(executionView) };
  }

  /** Sends the deterministic test body now and returns its execution. */
  async test(userId: number, id: number) {
    const sub = await ownedSubscription(this.store, userId, id);
    const body = testBody(Number(sub.id), Number(sub.created_at), this.deps.publicBaseUrl);
    const eventId = body.id as string;
    const now = this.now();
    const executionId = await this.store.transaction(async (trx) => {
      let deliveryId = await this.store.insertDelivery(
        {
          subscription_id: Number(sub.id),
          user_id: userId,
          event_id: eventId,
          event: TEST_EVENT,
          body: JSON.stringify(body),
          created_at: now,
        },
        trx,
      );
      deliveryId ??= Number((await this.store.findDelivery(Number(sub.id), eventId, trx))!.id);
      const attempt = (await this.store.maxAttempt(deliveryId, trx)) + 1;
      return this.store.insertExecution(
        {
          delivery_id: deliveryId,
          subscription_id: Number(sub.id),
          attempt,
          status: 'pending',
          response_status: null,
          duration_ms: null,
          error: null,
          created_at: now,
          next_attempt_at: now,
        },
        trx,
      );
    });
    await this.attempt(executionId, { retryUntil: now, countsForSubscription: false, queued: false });
    return executionView((await this.store.getExecution(executionId))!);
  }

  /** Sends a past execution's event again (same body, same `webhook-id`) as a new attempt. */
  async redeliver(userId: number, id: number, executionId: number) {
    const sub = await ownedSubscription(this.store, userId, id);
    const execution = await this.store.getExecution(executionId);
    if (!execution || Number(execution.subscription_id) !== Number(sub.id)) {
      throw notFound(`Webhook subscription ${id} has no execution ${executionId}.`);
    }
    if (Number(sub.is_active) !== 1) {
      throw conflict(
        'This subscription is disabled; re-enable it (PATCH is_active: true) before redelivering.',
        'webhook_inactive',
      );
    }
    const now = this.now();
    const newId = await this.store.transaction(async (trx) => {
      const attempt = (await this.store.maxAttempt(Number(execution.delivery_id), trx)) + 1;
      const created = await this.store.insertExecution(
        {
          delivery_id: Number(execution.delivery_id),
          subscription_id: Number(sub.id),
          attempt,
          status: 'pending',
          response_status: null,
          duration_ms: null,
          error: null,
          created_at: now,
          next_attempt_at: now,
        },
        trx,
      );
      await this.enqueueAttempt(created, now, now + RETRY_WINDOW_MS, trx);
      return created;
    });
    this.deps.poke();
    return executionView((await this.store.getExecution(newId))!);
  }

  /** Writes the successful attempts recorded so far; the worker calls it before marking their jobs done. */
  flushSuccesses(): Promise<void> {
    return this.successes.flush();
  }

  /** Reads ahead for claimed attempt jobs (the worker's `prepare`), so each start needs no query. */
  prepareAttempts(jobs: JobContext<DeliverPayload>[]): Promise<void> {
    return this.loader.prime(jobs.map((job) => job.payload.execution_id));
  }

  /** Job handler: one attempt of one execution. */
  async deliver(job: JobContext<DeliverPayload>): Promise<void> {
    await this.attempt(job.payload.execution_id, {
      retryUntil: job.payload.retry_until,
      countsForSubscription: true,
      queued: true,
      idle: job.idle,
    });
  }

  /** The job goes back to the queue until the destination is expected to have a free slot. */
  private deferral(error: OutboundError): DeferJobError {
    const wait = Math.min(Math.max(error.retryAfterMs ?? 0, DEFER_MIN_MS), DEFER_MAX_MS);
    return new DeferJobError(error.message, this.now() + Math.round(wait * (1 + this.random())));
  }

  private secretsOf(sub: AttemptSubscription, now: number): string[] {
    const secrets = [this.open(sub.secret)];
    if (
      sub.previous_secret &&
      sub.previous_secret_expires_at !== null &&
      Number(sub.previous_secret_expires_at) > now
    ) {
      secrets.push(this.open(sub.previous_secret));
    }
    return secrets;
  }

  /** Decrypts a stored secret; kept by its sealed text, so a subscription's deliveries decrypt it once. */
  private open(sealed: string): string {
    let plain = this.opened.get(sealed);
    if (plain === undefined) {
      plain = this.deps.box.decrypt(sealed);
      if (this.opened.size >= OPENED_SECRETS) this.opened.clear();
      this.opened.set(sealed, plain);
    }
    return plain;
  }

  private async attempt(executionId: number, options: AttemptOptions): Promise<void> {
    const data = await this.loader.load(executionId);
    if (data?.execution.status !== 'pending') return;
    const { execution, sub } = data;
    if (options.countsForSubscription && Number(sub.is_active) !== 1) {
      await this.store.updatePendingExecution(executionId, {
        status: 'failed',
        error: 'The subscription is disabled.',
        next_attempt_at: null,
      });
      return;
    }
    const started = this.now();
    const timestamp = Math.floor(started / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatureHeaders(this.secretsOf(sub, started), execution.event_id, timestamp, execution.body),
    };
    // On the network, the attempt holds its destination's slot but not a job slot: a receiver that is slow to
    // answer delays its own deliveries only.
    const sending = this.send(sub.url, headers, execution.body, options.queued);
    const outcome = await (options.idle ? options.idle(sending) : sending);
    await this.record(execution, sub, outcome, options);
  }

  private async send(
    url: string,
    headers: Record<string, string>,
    body: string,
    queued: boolean,
  ): Promise<Outcome> {
    let response: OutboundResponse;
    try {
      response = await this.deps.outbound.request(url, {
        method: 'POST',
        headers,
        body,
        timeoutMs: TIMEOUT_MS,
        maxBodyBytes: 1024,
        queueTimeoutMs: queued ? SLOT_WAIT_MS : undefined,
      });
    } catch (error) {
      if (error instanceof OutboundError) {
        if (error.kind === 'busy') throw this.deferral(error);
        const prefix = error.kind === 'refused' ? 'Destination refused by the outbound guard: ' : '';
        return { kind: 'failed', retry: true, error: `${prefix}${error.message}` };
      }
      return { kind: 'failed', retry: true, error: 'The request failed.' };
    }
    const status = response.status;
    if (status >= 200 && status < 300) return { kind: 'succeeded', response };
    if (status === 410)
      return {
        kind: 'failed',
        retry: false,
        disable: 'gone',
        response,
        error: 'The receiver answered 410 Gone.',
      };
    if (status === 429 || status >= 500) {
      const now = this.now();
      const wait = retryAfterMs(response.headers['retry-after'], now);
      return {
        kind: 'failed',
        retry: true,
        response,
        error: `The receiver answered ${status}.`,
        retryAt: wait === undefined ? undefined : now + wait,
      };
    }
    const what = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
    return { kind: 'failed', retry: false, response, error: `The receiver answered ${status}${what}.` };
  }

  private async record(
    execution: ExecutionView,
    sub: AttemptSubscription,
    outcome: Outcome,
    options: AttemptOptions,
  ): Promise<void> {
    const executionId = Number(execution.id);
    if (outcome.kind === 'succeeded' && options.queued) {
      // Written with the other successes of this moment, before the worker marks the job done (module.ts).
      this.successes.add({
        executionId,
        responseStatus: outcome.response.status,
        durationMs: outcome.response.durationMs,
      });
      return;
    }
    // Successes recorded before this outcome are written first, so the subscription's failure run stays in order.
    await this.successes.flush();
    const now = this.now();
    const subId = Number(sub.id);
    let enqueued = false;
    let disabled = false;
    await this.store.transaction(async (trx) => {
      if (outcome.kind === 'succeeded') {
        const updated = await this.store.updatePendingExecution(
          executionId,
          {
            status: 'succeeded',
            response_status: outcome.response.status,
            duration_ms: outcome.response.durationMs,
            error: null,
            next_attempt_at: null,
          },
          trx,
        );
        if (updated && options.countsForSubscription) {
          await this.store.update(
            subId,
            { failure_count: 0, failing_since: null, last_delivery_at: now },
            trx,
          );
        }
        return;
      }
      const current = options.countsForSubscription ? await this.store.find(subId, trx) : undefined;
      const failingSince = current ? Number(current.failing_since ?? now) : now;
      const tooLong = options.countsForSubscription && now - failingSince >= RETRY_WINDOW_MS;
      let nextAt: number | null = null;
      if (outcome.retry && !outcome.disable && !tooLong) {
        const candidate = Math.max(
          now + backoffMs(Number(execution.attempt), RETRY_BACKOFF, this.random),
          outcome.retryAt ?? 0,
        );
        if (candidate <= options.retryUntil) nextAt = candidate;
      }
      // Retries ran out after a day of failing without a success in between: stop sending altogether.
      const exhausted =
        options.countsForSubscription &&
        outcome.retry &&
        nextAt === null &&
        failingSince <= options.retryUntil - RETRY_WINDOW_MS;
      const updated = await this.store.updatePendingExecution(
        executionId,
        {
          status: 'failed',
          response_status: outcome.response?.status ?? null,
          duration_ms: outcome.response?.durationMs ?? null,
          error: outcome.error,
          next_attempt_at: nextAt,
        },
        trx,
      );
      if (!updated) return;
      if (nextAt !== null) {
        const next = await this.store.insertExecution(
          {
            delivery_id: Number(execution.delivery_id),
            subscription_id: subId,
            attempt: Number(execution.attempt) + 1,
            status: 'pending',
            response_status: null,
            duration_ms: null,
            error: null,
            created_at: now,
            next_attempt_at: nextAt,
          },
          trx,
        );
        await this.enqueueAttempt(next, nextAt, options.retryUntil, trx);
        enqueued = true;
      }
      if (current) {
        const disable = outcome.disable ?? (tooLong || exhausted ? 'failing_24h' : undefined);
        await this.store.update(
          subId,
          {
            failure_count: Number(current.failure_count) + 1,
            failing_since: failingSince,
            ...(disable ? { is_active: 0, disabled_reason: disable } : {}),
          },
          trx,
        );
        disabled = disable !== undefined;
      }
    });
    if (disabled) this.disabled();
    if (enqueued) this.deps.poke();
  }
}
