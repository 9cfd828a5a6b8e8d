// Scheduled exports of trends to S3-compatible storage (aws, gcp) or e-mail, with run history. Runs are jobs in
// the durable job table: the scheduler claims each due run once (compare-and-set on next_run_at), run-now queues
// one at once; every run has one history row, retried with backoff while the destination fails, and its end is
// recorded as a domain event (export.run.finished / export.run.failed) in the transaction that writes it.
import type { Transaction } from 'kysely';
import type { Database, DB } from '../../database.ts';
import type { Actor, AuditLog } from '../../platform/audit.ts';
import { type Clock, isoString } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/crypto.ts';
import { ApiError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { EventRecorder } from '../../platform/events.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { type JobContext, type JobWorker, RetryLaterError } from '../../platform/jobs/worker.ts';
import type { OutboundClient } from '../../platform/outbound.ts';
import { type BackoffPolicy, backoffMs } from '../../platform/retry.ts';
import { categoryByNameOrSlug } from '../text/index.ts';
import type { TrendsService } from '../trends/index.ts';
import {
  type BucketSettings,
  type Destination,
  type EmailSettings,
  type ExportFilters,
  fileUrl,
  maskedConfig,
  parseConfig,
  type Secrets,
  type Settings,
} from './destinations.ts';
import { EXPORT_RUN_FAILED, EXPORT_RUN_FINISHED, type ExportEvents } from './events.ts';
import { DeliveryError } from './failures.ts';
import { CONTENT_TYPES, fieldProblem, fileName, TREND_FIELDS, toCsv, toJsonLines } from './files.ts';
import { sendMail } from './mail.ts';
import { putObject } from './s3.ts';
import { nextRunAt, type RecurringSchedule, type Schedule, WEEKDAYS } from './schedule.ts';
import type { SaveExportInput } from './schemas.ts';
import { type ConfigRow, ExportsStore, type HistoryRow } from './store.ts';

/** How a run ends whose configuration was deleted before it finished. */
const DELETED_RUN = {
  status: 'failed',
  error_message: 'The export configuration was deleted before this run finished.',
  next_attempt_at: null,
} as const;

/** The same end, as `finish` records it. */
const DELETED_OUTCOME = {
  status: 'failed',
  file_url: null,
  row_count: null,
  error_message: DELETED_RUN.error_message,
} as const;

const EXPORT_RUN_JOB = 'export-run';
/**
 * A slot the scheduler (every minute, app.ts) first sees later than this was missed while the service was down;
 * it is not made up. Two ticks' worth, so a tick held up by load still runs its slot.
 */
const MISSED_AFTER_MS = 2 * 60_000;
/** Configurations per user. */
const MAX_EXPORTS_PER_USER = 20;
/** Attempts per run: the first and up to 7 retries, 30 s, 1, 2, 4, 8, 16 and 32 min apart (jittered). */
const MAX_ATTEMPTS = 8;
const EXPORT_BACKOFF: BackoffPolicy = { baseMs: 30_000, capMs: 3_600_000 };
/** Due configurations handled per query of the scheduler (it loops while there are more). */
const SCHEDULER_BATCH = 100;

interface ExportsDeps {
  clock: Clock;
  db: DB;
  box: SecretBox;
  jobs: JobQueue;
  worker: JobWorker;
  events: EventRecorder<ExportEvents>;
  outbound: OutboundClient;
  audit: AuditLog;
  /** Tells the local worker that jobs were committed. */
  poke: () => void;
  trends: Pick<TrendsService, 'list'>;
  /** Which users' accounts are enabled (the accounts module's AccountsService). */
  accounts: { activeAmong(userIds: readonly number[]): Promise<Set<number>> };
  /** Source of backoff jitter; injectable for tests. */
  random?: () => number;
}

interface RunPayload {
  history_id: number;
}

const SECRET_KEY_OF: Record<Destination, keyof Secrets> = {
  aws: 'secret_access_key',
  gcp: 'secret_access_key',
  email: 'password',
};

function configView(row: ConfigRow) {
  const destination = row.destination as Destination;
  const settings = JSON.parse(row.config) as Settings;
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    destination,
    config: maskedConfig(settings, row.secrets === null ? [] : [SECRET_KEY_OF[destination]]),
    schedule: row.schedule as Schedule,
    schedule_time: row.schedule_time === '' ? null : row.schedule_time,
    is_active: Number(row.is_active) === 1,
    selected_fields: JSON.parse(row.selected_fields) as string[],
    created_at: isoString(Number(row.created_at))!,
    updated_at: isoString(Number(row.updated_at))!,
    schedule_day: row.schedule_day === null ? null : WEEKDAYS[Number(row.schedule_day)]!,
    next_run_at: isoString(row.next_run_at === null ? null : Number(row.next_run_at)),
  };
}

const ms = (value: number | null) => (value === null ? null : Number(value));

function historyView(row: HistoryRow) {
  return {
    id: Number(row.id),
    config_id: ms(row.config_id),
    status: row.status as 'queued' | 'running' | 'succeeded' | 'failed',
    file_url: row.file_url,
    row_count: ms(row.row_count),
    error_message: row.error_message,
    created_at: isoString(Number(row.created_at)),
    completed_at: isoString(ms(row.completed_at)),
    destination: row.destination as Destination,
    origin: row.origin as 'schedule' | 'manual',
    attempts: Number(row.attempts),
    started_at: isoString(ms(row.started_at)),
    next_attempt_at: isoString(ms(row.next_attempt_at)),
  };
}

/** `selected_fields` checked (400 naming the bad one); none chosen = every field. */
function columnsOf(selected: string[] | undefined): string[] {
  if (selected === undefined || selected.length === 0) return [...TREND_FIELDS];
  const seen = new Set<string>();
  selected.forEach((name, i) => {
    const problem = fieldProblem(name);
    if (problem) throw badRequest(`selected_fields[${i}]: ${problem}.`, `selected_fields[${i}]`);
    if (seen.has(name))
      throw badRequest(`selected_fields[${i}]: "${name}" is listed twice.`, `selected_fields[${i}]`);
    seen.add(name);
  });
  return selected;
}

function checkCategory(category: string): void {
  if (categoryByNameOrSlug(category) === null) {
    throw badRequest(
      `config.filters.category "${category}" is not in the taxonomy; GET /api/trends/categories lists names and slugs.`,
      'config.filters.category',
    );
  }
}

export class ExportsService {
  private readonly store: ExportsStore;

  constructor(private readonly deps: ExportsDeps) {
    this.store = new ExportsStore(deps.db);
    deps.worker.register<RunPayload>(EXPORT_RUN_JOB, (job) => this.runJob(job));
  }

  /** `GET /api/user/export/settings`: the caller's configurations, oldest first. */
  async list(userId: number) {
    return (await this.store.listConfigs(userId)).map(configView);
  }

  /**
   * `POST /api/user/export/settings`: checks, guards and saves a new configuration, or with `id` (upstream's
   * `config_id`) replaces that configuration of the caller in place. `created` says which (201 or 200).
   */
  async save(userId: number, actor: Actor, input: SaveExportInput) {
    const { settings, secrets } = parseConfig(
      input.destination,
      input.config as Record<string, unknown>,
      checkCategory,
    );
    const columns = columnsOf(input.selected_fields);
    if (input.schedule !== 'weekly' && input.schedule_day !== undefined) {
      throw badRequest('schedule_day is only for weekly schedules.', 'schedule_day');
    }
    const time = input.schedule_time ?? null;
    if (input.schedule !== 'none' && time === null) {
      throw badRequest(
        `schedule_time (HH:MM, UTC) is required for a ${input.schedule} schedule; only "none" goes without.`,
        'schedule_time',
      );
    }
    await this.checkDestination(input.destination, settings);
    const existing =
      input.id === undefined ? undefined : await this.store.findConfigForUser(userId, input.id);
    if (input.id !== undefined && !existing) throw notFound(`No export configuration has id ${input.id}.`);
    if (!existing && (await this.store.countConfigs(userId)) >= MAX_EXPORTS_PER_USER) {
      throw conflict(
        `You already have ${MAX_EXPORTS_PER_USER} export configurations; delete one first.`,
        'export_limit_reached',
      );
    }
    const now = this.deps.clock.now();
    // Weekly without schedule_day: the weekday it already had (an update), else today's (UTC).
    const day =
      input.schedule === 'weekly'
        ? input.schedule_day !== undefined
          ? WEEKDAYS.indexOf(input.schedule_day)
          : existing?.schedule === 'weekly' && existing.schedule_day !== null
            ? Number(existing.schedule_day)
            : new Date(now).getUTCDay()
        : null;
    const active = input.is_active ?? true;
    const storedTime = time ?? '';
    // An update that leaves the timing alone keeps the next run as it was (a due run not yet queued stays
    // due); any change of schedule, time, weekday or is_active computes it afresh from now.
    const sameTiming =
      existing !== undefined &&
      existing.schedule === input.schedule &&
      existing.schedule_time === storedTime &&
      ms(existing.schedule_day) === day &&
      Number(existing.is_active) === (active ? 1 : 0);
    const next = sameTiming
      ? ms(existing.next_run_at)
      : active && input.schedule !== 'none'
        ? nextRunAt(input.schedule, storedTime, day, now)
        : null;
    const secret = secrets[SECRET_KEY_OF[input.destination]];
    const fields = {
      destination: input.destination,
      config: JSON.stringify(settings),
      secrets: secret === undefined ? null : this.deps.box.encrypt(JSON.stringify(secrets)),
      schedule: input.schedule,
      schedule_time: storedTime,
      schedule_day: day,
      is_active: active ? 1 : 0,
      selected_fields: JSON.stringify(columns),
      next_run_at: next,
      updated_at: now,
    };
    const when =
      input.schedule === 'none' ? 'no schedule (run-now only)' : `${input.schedule} at ${time} UTC`;
    const row = await this.store.transaction(async (trx) => {
      if (existing) {
        // Only the caller's own row is written; deleted meanwhile → 404 and nothing changed.
        const updated = await this.store.updateConfigForUser(userId, Number(existing.id), fields, trx);
        if (!updated) throw notFound(`No export configuration has id ${input.id}.`);
        await this.deps.audit.record(
          userId,
          actor,
          'export.updated',
          'export',
          Number(updated.id),
          `${input.destination}, ${when}`,
          trx,
        );
        return updated;
      }
      const inserted = await this.store.insertConfig({ user_id: userId, ...fields, created_at: now }, trx);
      await this.deps.audit.record(
        userId,
        actor,
        'export.created',
        'export',
        Number(inserted.id),
        `${input.destination}, ${when}`,
        trx,
      );
      return inserted;
    });
    return { created: !existing, config: configView(row) };
  }

  /** A user-given endpoint or SMTP host must pass the outbound guard now (and again at every run). */
  private async checkDestination(destination: Destination, settings: Settings): Promise<void> {
    const { policy } = this.deps.outbound;
    if (destination === 'email') {
      const { host } = settings as EmailSettings;
      const literal = host.includes(':') ? `[${host}]` : host;
      await policy.assertAllowed(`http://${literal}/`, 'body.config.host');
      return;
    }
    const { endpoint } = settings as BucketSettings;
    if (endpoint !== null) await policy.assertAllowed(endpoint, 'body.config.endpoint');
  }

  /**
   * `DELETE /api/user/export/settings/{id}`: its history stays (with `config_id` null). A run still waiting (queued,
   * or for a retry) ends `failed` now, so the history never shows a run that will not happen; one that is running
   * ends when its attempt does.
   */
  async remove(userId: number, actor: Actor, id: number): Promise<void> {
    const now = this.deps.clock.now();
    const closed = await this.store.transaction(async (trx) => {
      const owned = await this.store.findConfigForUser(userId, id, trx);
      if (!owned) throw notFound(`No export configuration has id ${id}.`);
      const waiting = await this.store.closeWaitingRuns(id, { ...DELETED_RUN, completed_at: now }, trx);
      // Each ends as a failed run does: the feed says so (export.run.failed).
      for (const run of waiting) await this.recordEnd(trx, run, DELETED_OUTCOME, now);
      const deleted = await this.store.deleteConfigForUser(userId, id, trx);
      if (!deleted) throw notFound(`No export configuration has id ${id}.`);
      await this.deps.audit.record(userId, actor, 'export.deleted', 'export', id, 'deleted', trx);
      return waiting.length;
    });
    if (closed > 0) this.deps.poke();
  }

  /** `POST …/configurations/{id}/run-now`: queues a run at once. */
  async runNow(userId: number, id: number) {
    const config = await this.store.findConfigForUser(userId, id);
    if (!config) throw notFound(`No export configuration has id ${id}.`);
    const open = await this.store.openRun(id);
    if (open) {
      throw conflict(
        `Run ${open.id} of this export is not over yet (queued, running or waiting for a retry); see GET /api/user/export/history.`,
        'export_run_in_progress',
      );
    }
    const run = await this.store.transaction((trx) => this.queueRun(config, 'manual', trx));
    this.deps.poke();
    return {
      success: true,
      message: `Export run ${run.id} queued; GET /api/user/export/history shows its outcome.`,
      execution_log_id: Number(run.id),
      status: 'queued',
    };
  }

  /** `GET /api/user/export/history`: the caller's runs, newest first. */
  async history(userId: number, query: { limit?: number; offset?: number; config_id?: number }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    if (query.config_id !== undefined && !(await this.store.findConfigForUser(userId, query.config_id))) {
      throw notFound(`No export configuration has id ${query.config_id}.`);
    }
    const { rows, total } = await this.store.listHistory(userId, query.config_id, limit, offset);
    return {
      history: rows.map(historyView),
      meta: { total, limit, offset, config_id: query.config_id ?? null },
    };
  }

  /**
   * Queues the runs that are due (called every minute by every instance). Each due run is claimed by moving
   * next_run_at forward in one compare-and-set statement, so it is queued exactly once however many
   * instances call this at the same time; runs missed while nothing ran are not made up. A configuration
   * whose previous run is not over yet skips this one.
   */
  async scheduleDue(): Promise<number> {
    const now = this.deps.clock.now();
    let queued = 0;
    let after: { next_run_at: number; id: number } | undefined;
    for (;;) {
      const due = await this.store.dueConfigs(now, SCHEDULER_BATCH, after);
      if (due.length === 0) break;
      const last = due[due.length - 1]!;
      after = { next_run_at: Number(last.next_run_at), id: Number(last.id) };
      // A disabled account (e.g. a removed organisation member) gets nothing delivered; its runs stay due.
      const enabled = await this.deps.accounts.activeAmong(due.map((config) => Number(config.user_id)));
      for (const config of due) {
        if (!enabled.has(Number(config.user_id))) continue;
        // The slot passed while nothing was running (the scheduler looks every minute): it is skipped, not made up.
        const missed = now - Number(config.next_run_at) > MISSED_AFTER_MS;
        const next = nextRunAt(
          config.schedule as RecurringSchedule,
          config.schedule_time,
          ms(config.schedule_day),
          now,
        );
        const ran = await this.store.transaction(async (trx) => {
          if (!(await this.store.claimRun(Number(config.id), Number(config.next_run_at), next, trx)))
            return false;
          if (missed) return false;
          if (await this.store.openRun(Number(config.id), trx)) return false;
          await this.queueRun(config, 'schedule', trx);
          return true;
        });
        if (ran) queued++;
      }
      if (due.length < SCHEDULER_BATCH) break;
    }
    if (queued > 0) this.deps.poke();
    return queued;
  }

  private async queueRun(config: ConfigRow, origin: 'schedule' | 'manual', trx: Transaction<Database>) {
    const run = await this.store.insertHistory(
      {
        user_id: Number(config.user_id),
        config_id: Number(config.id),
        destination: config.destination,
        origin,
        status: 'queued',
        file_url: null,
        row_count: null,
        error_message: null,
        attempts: 0,
        next_attempt_at: null,
        created_at: this.deps.clock.now(),
        started_at: null,
        completed_at: null,
      },
      trx,
    );
    await this.deps.jobs.enqueue(trx, {
      type: EXPORT_RUN_JOB,
      payload: { history_id: Number(run.id) } satisfies RunPayload,
      maxAttempts: MAX_ATTEMPTS,
    });
    return run;
  }

  /** The job: one attempt of a run. Failures that may pass are retried with backoff; the last one is final. */
  async runJob(job: JobContext<RunPayload>): Promise<void> {
    const { clock } = this.deps;
    const run = await this.store.findHistory(job.payload.history_id);
    if (!run || run.completed_at !== null) return;
    const config = run.config_id === null ? undefined : await this.store.findConfig(Number(run.config_id));
    if (!config) {
      await this.finish(run, DELETED_OUTCOME);
      return;
    }
    const startedAt = clock.now();
    await this.store.updateOpenHistory(Number(run.id), {
      status: 'running',
      attempts: job.attempts,
      started_at: startedAt,
      next_attempt_at: null,
    });
    let failure: DeliveryError;
    try {
      // Named after the run, not the attempt: a retry after a crash replaces what an earlier attempt stored.
      const delivered = await this.deliver(config, Number(run.id), Number(run.created_at));
      await this.finish(run, { status: 'succeeded', ...delivered, error_message: null });
      return;
    } catch (error) {
      failure =
        error instanceof DeliveryError
          ? error
          : error instanceof ApiError && error.status === 400
            ? new DeliveryError(error.detail, false)
            : new DeliveryError('The export failed unexpectedly; it will be retried.', true);
    }
    if (!failure.retryable || job.attempts >= job.maxAttempts) {
      await this.finish(run, {
        status: 'failed',
        file_url: null,
        row_count: null,
        error_message: failure.message,
      });
      return;
    }
    const retryAt = clock.now() + backoffMs(job.attempts, EXPORT_BACKOFF, this.deps.random);
    await this.store.updateOpenHistory(Number(run.id), {
      status: 'failed',
      error_message: failure.message,
      next_attempt_at: retryAt,
    });
    throw new RetryLaterError(`export run ${run.id} failed and will be retried: ${failure.message}`, retryAt);
  }

  /** Ends a run for good and records its event, in one transaction. */
  private async finish(
    run: HistoryRow,
    outcome: {
      status: 'succeeded' | 'failed';
      file_url: string | null;
      row_count: number | null;
      error_message: string | null;
    },
  ): Promise<void> {
    const now = this.deps.clock.now();
    const id = Number(run.id);
    const recorded = await this.store.transaction(async (trx) => {
      const ended = await this.store.updateOpenHistory(
        id,
        { ...outcome, next_attempt_at: null, completed_at: now },
        trx,
      );
      if (!ended) return false;
      await this.recordEnd(trx, run, outcome, now);
      return true;
    });
    if (recorded) this.deps.poke();
  }

  /** The domain event of a run's end, in the transaction that ends it (the notification feed reads it). */
  private async recordEnd(
    trx: Transaction<Database>,
    run: HistoryRow,
    outcome: { status: 'succeeded' | 'failed'; row_count: number | null; error_message: string | null },
    now: number,
  ): Promise<void> {
    const id = Number(run.id);
    const type = outcome.status === 'succeeded' ? EXPORT_RUN_FINISHED : EXPORT_RUN_FAILED;
    await this.deps.events.record(trx, {
      id: `${type}:${id}:${outcome.status}:${now}`,
      type,
      occurred_at: now,
      data: {
        user_id: Number(run.user_id),
        config_id: ms(run.config_id),
        history_id: id,
        destination: run.destination,
        row_count: outcome.row_count,
        error_message: outcome.error_message,
      },
    });
  }

  /** Builds the file and hands it to the destination. */
  private async deliver(config: ConfigRow, historyId: number, queuedAt: number) {
    const destination = config.destination as Destination;
    const settings = JSON.parse(config.config) as Settings;
    let secrets: Secrets = {};
    if (config.secrets !== null) {
      try {
        secrets = JSON.parse(this.deps.box.decrypt(config.secrets)) as Secrets;
      } catch {
        throw new DeliveryError(
          'The stored credentials cannot be decrypted (was SECRET_KEY changed?); save the export again.',
          false,
        );
      }
    }
    const columns = JSON.parse(config.selected_fields) as string[];
    const trends = await this.trendRows(settings.filters);
    const body = Buffer.from(
      settings.format === 'jsonl' ? toJsonLines(trends, columns) : toCsv(trends, columns),
      'utf8',
    );
    const name = fileName(queuedAt, historyId, settings.format);
    const contentType = CONTENT_TYPES[settings.format];
    const { policy } = this.deps.outbound;
    if (destination === 'email') {
      const email = settings as EmailSettings;
      const day = new Date(queuedAt).toISOString().slice(0, 10);
      await sendMail(
        {
          settings: email,
          password: secrets.password ?? null,
          subject: email.subject ?? `Crestwatch trends export ${day}`,
          text:
            `${trends.length} trends (period ${settings.filters.period}, sorted by ${settings.filters.sort_by}) ` +
            `are attached as ${name}.\n`,
          attachment: { filename: name, content: body, contentType },
        },
        policy,
      );
      return { file_url: fileUrl(destination, settings, name), row_count: trends.length };
    }
    const bucket = settings as BucketSettings;
    const key = `${bucket.prefix}${name}`;
    await putObject(
      {
        settings: bucket,
        gcp: destination === 'gcp',
        secretAccessKey: secrets.secret_access_key ?? '',
        key,
        body,
        contentType,
      },
      policy,
    );
    return { file_url: fileUrl(destination, settings, key), row_count: trends.length };
  }

  /** The trends `GET /api/trends` answers for the same filters (the same list code; `limit` may exceed a page). */
  private async trendRows(filters: ExportFilters): Promise<Record<string, unknown>[]> {
    const list = await this.deps.trends.list({
      period: filters.period,
      sort_by: filters.sort_by,
      order: filters.order,
      limit: filters.limit,
      offset: 0,
      ...(filters.category !== undefined ? { category: filters.category } : {}),
      ...(filters.search !== undefined ? { search: filters.search } : {}),
    });
    // Plain objects, as the route serialises them (JSON drops undefined fields).
    return JSON.parse(JSON.stringify(list.trends)) as Record<string, unknown>[];
  }
}
