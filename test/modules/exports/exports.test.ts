// Scheduled exports end to end: configurations (masked secrets, validation, limits, the tenant wall), runs on
// schedule (injected clock) and on run-now to an S3 stand-in that checks SigV4, to a Cloud Storage stand-in and
// by SMTP, files equal to `GET /api/trends`, history rows, retries with backoff and the final failure, the
// outbound guard at save time and at run time, and no secret in any response or log line.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import { after, before, describe, test } from 'node:test';
import { fileName } from '../../../src/modules/exports/files.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { DOMAIN_EVENT_JOB } from '../../../src/platform/events.ts';
import { assertProblem, buildTestApp, call, createUser, type Json } from '../../helpers/app.ts';
import { usingPostgres } from '../../helpers/db.ts';
import { drainJobs } from '../../helpers/jobs.ts';
import { buildLoggedApp, type IntegrationTestContext, leaks } from '../integrations/stand-ins.ts';
import {
  attachmentOf,
  PROVIDER_MARKER,
  parseCsv,
  type S3StandIn,
  type SmtpStandIn,
  s3StandIn,
  smtpStandIn,
} from './stand-ins.ts';

const SETTINGS = '/api/user/export/settings';
const HISTORY = '/api/user/export/history';
const runNowPath = (id: number) => `/api/user/export/configurations/${id}/run-now`;

const HOUR = 3_600_000;
const START = Date.parse('2026-11-21T10:00:00Z');
const AWS = { accessKeyId: 'AKIAEXPORTSTANDIN001', secret: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYexportSECRET1' };
const GCS = { accessKeyId: 'GOOGEXPORTHMACID0001', secret: 'gcs-hmac-secret-Vb93kQ0zLmN4rT8yW2' };
const SMTP = { user: 'mailer', password: 'smtp-password-Hk27dPq91' };
const WRONG_SECRET = 'not-the-secret-Jd83kd02LmQ';
const SECRETS = [AWS.secret, GCS.secret, SMTP.password, WRONG_SECRET];

const clock = new ManualClock(START);
let ctx: IntegrationTestContext;
let s3: S3StandIn;
let gcs: S3StandIn;
let user: { userId: number; key: string };
let other: { userId: number; key: string };
let reader: string;
/** Every response body of this file, checked for secrets at the end. */
const bodies: string[] = [];

async function api(method: 'GET' | 'POST' | 'DELETE', url: string, key?: string, body?: unknown) {
  const res = await call(ctx.app, method, url, { key, body });
  bodies.push(res.body);
  return res;
}

function awsConfig(extra: Record<string, unknown> = {}) {
  return {
    bucket: 'exports-bucket',
    region: 'us-east-1',
    access_key_id: AWS.accessKeyId,
    secret_access_key: AWS.secret,
    endpoint: s3.url,
    ...extra,
  };
}

async function save(body: Record<string, unknown>, key = user.key): Promise<Json> {
  const res = await api('POST', SETTINGS, key, {
    destination: 'aws',
    schedule: 'daily',
    schedule_time: '10:30',
    ...body,
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.data;
}

async function runNow(id: number, key = user.key): Promise<number> {
  const res = await api('POST', runNowPath(id), key);
  assert.equal(res.statusCode, 202, res.body);
  return res.data.execution_log_id;
}

async function historyRow(id: number, key = user.key): Promise<Json> {
  const res = await api('GET', `${HISTORY}?limit=100`, key);
  if (res.statusCode !== 200) console.log(ctx.logs.filter((l) => l.includes('"level":50')).slice(-2));
  assert.equal(res.statusCode, 200, res.body);
  const row = res.data.history.find((h: Json) => h.id === id);
  assert.ok(row, `history ${id} not listed`);
  return row;
}

async function settle(): Promise<void> {
  ctx.app.services.worker.poke();
  await drainJobs(ctx);
}

/** The domain events recorded for a history row, by type. */
async function eventsFor(historyId: number): Promise<string[]> {
  const rows = await ctx.app.services.db
    .selectFrom('jobs')
    .select('payload')
    .where('type', '=', DOMAIN_EVENT_JOB)
    .execute();
  return rows
    .map((r) => JSON.parse(r.payload) as { type: string; data: { history_id?: number } })
    .filter((e) => e.type.startsWith('export.run.') && e.data.history_id === historyId)
    .map((e) => e.type);
}

/** The trends `GET /api/trends` answers for the query, as CSV cells. */
async function expectedCells(query: string, columns: string[]): Promise<string[][]> {
  const res = await api('GET', `/api/trends?${query}`, user.key);
  assert.equal(res.statusCode, 200, res.body);
  assert.ok(res.data.trends.length > 0, 'the list is not empty');
  return res.data.trends.map((t: Json) =>
    columns.map((c) => {
      const v = t[c === 'name' ? 'title' : c];
      return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    }),
  );
}

/** Signals for a few trends over the last 30 hours, then one engine pass. */
async function seedTrends(): Promise<void> {
  const feeder = (await createUser(ctx, 'enterprise', ['ingest'])).key;
  const names = ['aurora borealis', 'quantum widget', 'retro console', 'solar kite', 'harbor festival'];
  const signals: Json[] = [];
  names.forEach((name, n) => {
    for (let k = 30; k >= 0; k--) {
      const count = (n + 1) * (k === 0 ? 3 : 1);
      for (let i = 0; i < count; i++) {
        signals.push({
          source: i % 2 === 0 ? 'x' : 'reddit',
          external_id: `${name}-${k}-${i}`,
          text: `${name} update`,
          keywords: [name],
          observed_at: new Date(START - k * HOUR - (k === 0 ? 60_000 * (i + 1) : 30 * 60_000)).toISOString(),
        });
      }
    }
  });
  const res = await call(ctx.app, 'POST', '/api/signals', { key: feeder, body: { signals } });
  assert.equal(res.statusCode, 202, res.body);
  await ctx.app.services.engine.tick();
}

before(async () => {
  s3 = await s3StandIn({
    accessKeyId: AWS.accessKeyId,
    secretAccessKey: AWS.secret,
    region: 'us-east-1',
    buckets: ['exports-bucket'],
  });
  gcs = await s3StandIn({
    accessKeyId: GCS.accessKeyId,
    secretAccessKey: GCS.secret,
    region: 'auto',
    buckets: ['gcs-bucket'],
  });
  ctx = await buildLoggedApp({ OUTBOUND_ALLOWLIST: '127.0.0.0/8' }, clock);
  ctx.app.services.worker.start();
  user = await createUser(ctx, 'enterprise');
  other = await createUser(ctx, 'enterprise');
  reader = (await createUser(ctx, 'enterprise', ['read'])).key;
  await seedTrends();
});

after(async () => {
  await ctx?.close();
  await s3?.close();
  await gcs?.close();
});

describe('export configurations', () => {
  test('saving answers ExportConfig with defaults filled in and the secret masked; it is stored encrypted', async () => {
    const saved = await save({ config: awsConfig({ prefix: 'daily' }) });
    assert.equal(saved.destination, 'aws');
    assert.equal(saved.user_id, user.userId);
    assert.equal(saved.schedule, 'daily');
    assert.equal(saved.schedule_time, '10:30');
    assert.equal(saved.schedule_day, null);
    assert.equal(saved.is_active, true);
    assert.equal(saved.next_run_at, '2026-11-21T10:30:00.000Z');
    assert.equal(saved.selected_fields.length, 20, 'every TrendItem field when none were chosen');
    assert.deepEqual(saved.config, {
      bucket: 'exports-bucket',
      region: 'us-east-1',
      access_key_id: AWS.accessKeyId,
      secret_access_key: '••••',
      endpoint: s3.url,
      prefix: 'daily/',
      format: 'csv',
      filters: { period: '24h', sort_by: 'volume', order: 'desc', limit: 100 },
    });
    const listed = await api('GET', SETTINGS, user.key);
    assert.equal(listed.statusCode, 200);
    assert.ok(Array.isArray(listed.data), 'a bare array, as upstream answers');
    assert.deepEqual(
      listed.data.find((c: Json) => c.id === saved.id),
      saved,
    );
    const row = await ctx.app.services.db
      .selectFrom('export_configs')
      .selectAll()
      .where('id', '=', saved.id)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(AWS.secret), 'the secret is not stored in clear');
    assert.match(String(row.secrets), /^v1\./);
    await api('DELETE', `${SETTINGS}/${saved.id}`, user.key);
  });

  test('weekly: on the weekday of creation by default, or on schedule_day; inactive ones have no next run', async () => {
    // 2026-11-21 is a Saturday.
    const saturday = await save({ schedule: 'weekly', schedule_time: '09:00', config: awsConfig() });
    assert.equal(saturday.schedule_day, 'saturday');
    assert.equal(saturday.next_run_at, '2026-11-28T09:00:00.000Z');
    const monday = await save({
      schedule: 'weekly',
      schedule_day: 'monday',
      schedule_time: '07:15',
      config: awsConfig(),
    });
    assert.equal(monday.next_run_at, '2026-11-23T07:15:00.000Z');
    const inactive = await save({ is_active: false, config: awsConfig() });
    assert.equal(inactive.next_run_at, null);
    for (const c of [saturday, monday, inactive]) {
      assert.equal((await api('DELETE', `${SETTINGS}/${c.id}`, user.key)).statusCode, 204);
    }
  });

  test('invalid bodies → 400 naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ config: awsConfig(), surprise: 1 }, /surprise/],
      [{ config: awsConfig({ bucket_name: 'x' }) }, /body\.config\.bucket_name/],
      [{ config: awsConfig(), selected_fields: ['title', 'colour'] }, /body\.selected_fields\[1\]/],
      [{ config: awsConfig(), selected_fields: ['title', 'title'] }, /body\.selected_fields\[1\]/],
      [{ config: awsConfig(), schedule: 'hourly' }, /body\.schedule/],
      [{ config: awsConfig(), schedule_time: '25:00' }, /body\.schedule_time/],
      [{ config: awsConfig(), schedule_day: 'monday' }, /body\.schedule_day/],
      [{ config: awsConfig({ secret_access_key: '••••' }) }, /body\.config\.secret_access_key/],
      [{ config: awsConfig({ bucket: undefined }) }, /body\.config\.bucket/],
      [{ config: awsConfig({ endpoint: 'ftp://127.0.0.1/' }) }, /body\.config\.endpoint/],
      [{ config: awsConfig({ endpoint: `${s3.url}/some/path` }) }, /body\.config\.endpoint/],
      [{ config: awsConfig({ format: 'xlsx' }) }, /body\.config\.format/],
      [{ config: awsConfig({ filters: { period: '2d' } }) }, /body\.config\.filters\.period/],
      [{ config: awsConfig({ filters: { limit: 10_001 } }) }, /body\.config\.filters\.limit/],
      [{ config: awsConfig({ filters: { category: 'Nowhere/Else' } }) }, /body\.config\.filters\.category/],
      [{ config: awsConfig({ filters: { interest: 1 } }) }, /body\.config\.filters\.interest/],
      [{ destination: 'ftp', config: awsConfig() }, /body\.destination/],
      [{ destination: 'gcp', config: awsConfig() }, /body\.config\.region/],
      [{ destination: 'email', config: { host: '127.0.0.1', from: 'a@example.com' } }, /body\.config\.to/],
      [
        {
          destination: 'email',
          config: { host: '127.0.0.1', from: 'a@example.com', to: 'x@y.z', password: 'p' },
        },
        /body\.config\.password/,
      ],
      [
        {
          destination: 'email',
          config: { host: '127.0.0.1', from: 'a@example.com', to: ['ok@x.io', 'bad address'] },
        },
        /body\.config\.to\[1\]/,
      ],
    ];
    for (const [body, path] of cases) {
      const res = await api('POST', SETTINGS, user.key, {
        destination: 'aws',
        schedule: 'daily',
        schedule_time: '10:30',
        ...body,
      });
      assertProblem(res, 400);
      assert.match(JSON.stringify(res.data.errors ?? res.data.detail), path, JSON.stringify(res.data));
    }
    const colour = await api('POST', SETTINGS, user.key, {
      destination: 'aws',
      schedule: 'daily',
      schedule_time: '10:30',
      config: awsConfig(),
      selected_fields: ['title', 'colour'],
    });
    assert.match(colour.data.detail, /"colour" is not a trend field/);
  });

  test('a private or metadata endpoint or SMTP host without the allowlist → 400 at save time', async () => {
    for (const [destination, config, field] of [
      ['aws', awsConfig({ endpoint: 'http://10.1.2.3:9000' }), 'body.config.endpoint'],
      ['aws', awsConfig({ endpoint: 'http://169.254.169.254' }), 'body.config.endpoint'],
      [
        'gcp',
        { bucket: 'gcs-bucket', access_key_id: 'a', secret_access_key: 's', endpoint: 'http://[fd00::1]:80' },
        'body.config.endpoint',
      ],
      ['email', { host: '192.168.0.10', from: 'a@example.com', to: 'b@example.com' }, 'body.config.host'],
    ] as const) {
      const res = await api('POST', SETTINGS, user.key, {
        destination,
        config,
        schedule: 'daily',
        schedule_time: '01:00',
      });
      assertProblem(res, 400);
      assert.equal(res.data.code, 'destination_not_allowed');
      assert.equal(res.data.errors[0].path, field);
    }
  });

  test('at most 20 configurations per user → 409 beyond', async () => {
    const capped = await createUser(ctx, 'enterprise');
    for (let i = 0; i < 20; i++) await save({ config: awsConfig(), is_active: false }, capped.key);
    const res = await api('POST', SETTINGS, capped.key, {
      destination: 'aws',
      schedule: 'daily',
      schedule_time: '10:30',
      config: awsConfig(),
    });
    assertProblem(res, 409);
    assert.equal(res.data.code, 'export_limit_reached');
  });

  test('the tenant wall: another user’s configuration and history ids → 404, never listed', async () => {
    const mine = await save({ config: awsConfig(), is_active: false });
    for (const [method, url] of [
      ['DELETE', `${SETTINGS}/${mine.id}`],
      ['POST', runNowPath(mine.id)],
      ['GET', `${HISTORY}?config_id=${mine.id}`],
    ] as const) {
      const res = await api(method, url, other.key);
      assertProblem(res, 404);
    }
    const theirs = await api('GET', SETTINGS, other.key);
    assert.ok(!theirs.data.some((c: Json) => c.id === mine.id));
    const run = await runNow(mine.id);
    await settle();
    const theirHistory = await api('GET', HISTORY, other.key);
    assert.ok(!theirHistory.data.history.some((h: Json) => h.id === run));
    assert.equal((await api('DELETE', `${SETTINGS}/${mine.id}`, user.key)).statusCode, 204);
  });

  test('permissions: a read-only key may list but not change (403); no key → 401', async () => {
    const mine = await save({ config: awsConfig(), is_active: false });
    assert.equal((await api('GET', SETTINGS, reader)).statusCode, 200);
    assert.equal((await api('GET', HISTORY, reader)).statusCode, 200);
    assertProblem(
      await api('POST', SETTINGS, reader, {
        destination: 'aws',
        schedule: 'daily',
        schedule_time: '10:30',
        config: awsConfig(),
      }),
      403,
    );
    assertProblem(await api('DELETE', `${SETTINGS}/${mine.id}`, reader), 403);
    assertProblem(await api('POST', runNowPath(mine.id), reader), 403);
    for (const [method, url] of [
      ['GET', SETTINGS],
      ['POST', SETTINGS],
      ['DELETE', `${SETTINGS}/${mine.id}`],
      ['POST', runNowPath(mine.id)],
      ['GET', HISTORY],
    ] as const) {
      assertProblem(await api(method, url, undefined, method === 'POST' ? {} : undefined), 401);
    }
    assertProblem(await api('GET', `${HISTORY}?limit=0`, user.key), 400);
    assertProblem(await api('GET', `${HISTORY}?sort=up`, user.key), 400);
    assertProblem(await api('POST', runNowPath(99_999_999), user.key), 404);
    assertProblem(await api('DELETE', `${SETTINGS}/99999999`, user.key), 404);
    assert.equal((await api('DELETE', `${SETTINGS}/${mine.id}`, user.key)).statusCode, 204);
  });
});

describe('no schedule, and updates in place (upstream’s save_export_settings)', () => {
  /** The caller's configuration as GET lists it. */
  async function listed(id: number, key = user.key): Promise<Json | undefined> {
    return (await api('GET', SETTINGS, key)).data.find((c: Json) => c.id === id);
  }

  test('the SDK’s default call (schedule "none", no schedule_time, is_active false) → 201; never scheduled, run-now runs it', async () => {
    clock.set(START);
    const res = await api('POST', SETTINGS, user.key, {
      destination: 'aws',
      config: awsConfig({ prefix: 'manual' }),
      schedule: 'none',
      is_active: false,
      selected_fields: ['id', 'name'],
    });
    assert.equal(res.statusCode, 201, res.body);
    const saved = res.data;
    assert.equal(saved.schedule, 'none');
    assert.equal(saved.schedule_time, null);
    assert.equal(saved.schedule_day, null);
    assert.equal(saved.is_active, false);
    assert.equal(saved.next_run_at, null);
    assert.deepEqual(await listed(saved.id), saved);
    // Active, and with a (kept, unused) time or an explicit null: still never scheduled.
    const active = await save({ schedule: 'none', is_active: true, config: awsConfig() });
    assert.equal(active.schedule_time, '10:30', 'a valid time given is kept');
    assert.equal(active.next_run_at, null);
    const explicitNull = await save({ schedule: 'none', schedule_time: null, config: awsConfig() });
    assert.equal(explicitNull.schedule_time, null);
    assert.equal(explicitNull.next_run_at, null);

    // Even a next_run_at put in the past by hand is never picked up by the scheduler.
    const ids = [saved.id, active.id, explicitNull.id];
    await ctx.app.services.db
      .updateTable('export_configs')
      .set({ next_run_at: START - HOUR })
      .where('id', 'in', ids)
      .execute();
    for (const at of ['2026-11-21T10:30:00Z', '2026-11-22T10:30:00Z', '2026-11-29T00:00:00Z']) {
      clock.set(at);
      await ctx.app.services.dataExports.scheduleDue();
    }
    await settle();
    for (const id of ids) {
      const runs = await api('GET', `${HISTORY}?config_id=${id}`, user.key);
      assert.equal(runs.data.meta.total, 0, `configuration ${id} was never run on a schedule`);
    }
    clock.set(START);

    const run = await runNow(saved.id);
    await settle();
    const row = await historyRow(run);
    assert.equal(row.status, 'succeeded', JSON.stringify(row));
    assert.equal(row.origin, 'manual');
    for (const id of ids) assert.equal((await api('DELETE', `${SETTINGS}/${id}`, user.key)).statusCode, 204);
  });

  test('schedule "none" with schedule_day → 400; daily or weekly without schedule_time → 400; a bad time stays a 400', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ schedule: 'none', schedule_day: 'monday' }, /schedule_day/],
      [{ schedule: 'none', schedule_time: '24:00' }, /schedule_time/],
      [{ schedule: 'daily' }, /schedule_time/],
      [{ schedule: 'weekly', schedule_day: 'monday', schedule_time: null }, /schedule_time/],
    ];
    const before = (await api('GET', SETTINGS, user.key)).data.length;
    for (const [body, path] of cases) {
      const res = await api('POST', SETTINGS, user.key, { destination: 'aws', config: awsConfig(), ...body });
      assertProblem(res, 400);
      assert.match(JSON.stringify(res.data.errors ?? res.data.detail), path, JSON.stringify(res.data));
    }
    assert.equal((await api('GET', SETTINGS, user.key)).data.length, before, 'nothing was saved');
  });

  test('POST with id updates that configuration in place (200): new settings and next_run_at, history kept', async () => {
    clock.set(START);
    const original = await save({ schedule_time: '10:30', config: awsConfig({ prefix: 'before' }) });
    assert.equal(original.next_run_at, '2026-11-21T10:30:00.000Z');
    const run = await runNow(original.id);
    await settle();
    const count = (await api('GET', SETTINGS, user.key)).data.length;

    clock.set('2026-11-21T10:05:00Z');
    const res = await api('POST', SETTINGS, user.key, {
      id: original.id,
      destination: 'aws',
      config: awsConfig({ prefix: 'after', format: 'jsonl' }),
      schedule: 'weekly',
      schedule_day: 'monday',
      schedule_time: '07:15',
      is_active: true,
      selected_fields: ['id', 'volume'],
    });
    assert.equal(res.statusCode, 200, res.body);
    const updated = res.data;
    assert.equal(updated.id, original.id);
    assert.equal(updated.user_id, user.userId);
    assert.equal(updated.created_at, original.created_at);
    assert.equal(updated.updated_at, '2026-11-21T10:05:00.000Z');
    assert.equal(updated.schedule, 'weekly');
    assert.equal(updated.schedule_day, 'monday');
    assert.equal(updated.schedule_time, '07:15');
    assert.equal(updated.next_run_at, '2026-11-23T07:15:00.000Z', 'recomputed for the new schedule');
    assert.deepEqual(updated.selected_fields, ['id', 'volume']);
    assert.equal(updated.config.prefix, 'after/');
    assert.equal(updated.config.format, 'jsonl');
    assert.equal(updated.config.secret_access_key, '••••');
    assert.deepEqual(await listed(original.id), updated);
    assert.equal((await api('GET', SETTINGS, user.key)).data.length, count, 'no configuration was added');
    const history = await api('GET', `${HISTORY}?config_id=${original.id}`, user.key);
    assert.deepEqual(
      history.data.history.map((h: Json) => h.id),
      [run],
      'the history still points at the configuration',
    );

    // A weekly update without schedule_day keeps the weekday; the timing unchanged keeps next_run_at.
    const same = await api('POST', SETTINGS, user.key, {
      id: original.id,
      destination: 'aws',
      config: awsConfig({ prefix: 'again' }),
      schedule: 'weekly',
      schedule_time: '07:15',
    });
    assert.equal(same.statusCode, 200, same.body);
    assert.equal(same.data.schedule_day, 'monday');
    assert.equal(same.data.next_run_at, '2026-11-23T07:15:00.000Z');

    // The mask instead of the secret is still a 400, and changes nothing.
    const masked = await api('POST', SETTINGS, user.key, {
      id: original.id,
      destination: 'aws',
      config: awsConfig({ secret_access_key: '••••' }),
      schedule: 'none',
    });
    assertProblem(masked, 400);
    assert.equal((await listed(original.id))?.schedule, 'weekly');

    // Switching to "none" stops the schedule.
    const none = await api('POST', SETTINGS, user.key, {
      id: original.id,
      destination: 'aws',
      config: awsConfig(),
      schedule: 'none',
      is_active: false,
      selected_fields: ['id'],
    });
    assert.equal(none.statusCode, 200, none.body);
    assert.equal(none.data.schedule, 'none');
    assert.equal(none.data.schedule_time, null);
    assert.equal(none.data.schedule_day, null);
    assert.equal(none.data.next_run_at, null);
    clock.set(START);
    assert.equal((await api('DELETE', `${SETTINGS}/${original.id}`, user.key)).statusCode, 204);
  });

  test('an update that leaves the timing alone keeps a due run due: the scheduler still queues it', async () => {
    clock.set(START);
    const config = await save({ schedule_time: '10:30', config: awsConfig({ prefix: 'due' }) });
    clock.set('2026-11-21T10:31:00Z');
    const res = await api('POST', SETTINGS, user.key, {
      id: config.id,
      destination: 'aws',
      config: awsConfig({ prefix: 'due-changed' }),
      schedule: 'daily',
      schedule_time: '10:30',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.next_run_at, '2026-11-21T10:30:00.000Z');
    assert.equal(await ctx.app.services.dataExports.scheduleDue(), 1);
    await settle();
    const runs = (await api('GET', `${HISTORY}?config_id=${config.id}`, user.key)).data.history;
    assert.equal(runs.length, 1);
    assert.equal(runs[0].status, 'succeeded', JSON.stringify(runs[0]));
    assert.match(runs[0].file_url, /\/due-changed\//, 'the run used the updated settings');
    clock.set(START);
    assert.equal((await api('DELETE', `${SETTINGS}/${config.id}`, user.key)).statusCode, 204);
  });

  test('POST with another user’s id or an unknown id → 404, and nothing is changed or created', async () => {
    clock.set(START);
    const mine = await save({ schedule_time: '10:30', config: awsConfig({ prefix: 'mine' }) });
    const theirsBefore = (await api('GET', SETTINGS, other.key)).data;
    const mineBefore = (await api('GET', SETTINGS, user.key)).data;
    for (const [key, id] of [
      [other.key, mine.id],
      [user.key, 99_999_999],
    ] as const) {
      const res = await api('POST', SETTINGS, key, {
        id,
        destination: 'aws',
        config: awsConfig({ prefix: 'hijack' }),
        schedule: 'none',
        is_active: false,
        selected_fields: ['id'],
      });
      assertProblem(res, 404);
    }
    assert.deepEqual((await api('GET', SETTINGS, user.key)).data, mineBefore);
    assert.deepEqual((await api('GET', SETTINGS, other.key)).data, theirsBefore);
    const row = await ctx.app.services.db
      .selectFrom('export_configs')
      .selectAll()
      .where('id', '=', mine.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.user_id), user.userId);
    assert.ok(!row.config.includes('hijack'));
    assert.equal((await api('DELETE', `${SETTINGS}/${mine.id}`, user.key)).statusCode, 204);
  });
});

describe('runs', () => {
  test('a daily export runs on schedule (injected clock), uploads CSV equal to GET /api/trends, records history', async () => {
    clock.set(START);
    const columns = ['id', 'name', 'volume', 'growth', 'velocity_score', 'sentiment', 'platforms'];
    const config = await save({
      schedule_time: '10:30',
      selected_fields: columns,
      config: awsConfig({
        prefix: 'daily',
        filters: { period: '24h', sort_by: 'volume', order: 'desc', limit: 3 },
      }),
    });
    assert.equal(await ctx.app.services.dataExports.scheduleDue(), 0, 'not due before 10:30');
    clock.set('2026-11-21T10:30:00Z');
    const [first, second] = await Promise.all([
      ctx.app.services.dataExports.scheduleDue(),
      ctx.app.services.dataExports.scheduleDue(),
    ]);
    assert.equal(first + second, 1, 'queued exactly once');
    assert.equal(await ctx.app.services.dataExports.scheduleDue(), 0);
    await settle();

    const runs = (await api('GET', `${HISTORY}?config_id=${config.id}`, user.key)).data;
    assert.equal(runs.history.length, 1);
    assert.equal(runs.meta.total, 1);
    const run = runs.history[0];
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    assert.equal(run.origin, 'schedule');
    assert.equal(run.attempts, 1);
    assert.equal(run.error_message, null);
    assert.equal(run.completed_at, '2026-11-21T10:30:00.000Z');
    const key = `daily/crestwatch-trends-20261121T103000Z-${run.id}.csv`;
    assert.equal(run.file_url, `${s3.url}/exports-bucket/${key}`);
    const object = s3.objects.get(`exports-bucket/${key}`);
    assert.ok(object, 'the object was stored');
    assert.equal(object.contentType, 'text/csv; charset=utf-8');
    const csv = object.body.toString('utf8');
    assert.ok(csv.endsWith('\r\n'));
    const [header, ...rows] = parseCsv(csv);
    assert.deepEqual(header, columns);
    assert.deepEqual(rows, await expectedCells('period=24h&sort_by=volume&order=desc&limit=3', columns));
    assert.equal(run.row_count, 3);
    assert.deepEqual(await eventsFor(run.id), ['export.run.finished']);

    const listed = (await api('GET', SETTINGS, user.key)).data.find((c: Json) => c.id === config.id);
    assert.equal(listed.next_run_at, '2026-11-22T10:30:00.000Z', 'the next run is tomorrow');
    // A tick held up by a minute still runs its slot.
    clock.set('2026-11-22T10:31:30Z');
    assert.equal(await ctx.app.services.dataExports.scheduleDue(), 1);
    await settle();
    assert.equal((await api('GET', `${HISTORY}?config_id=${config.id}`, user.key)).data.meta.total, 2);
    // Missed runs are not made up: back three days later, half an hour after the slot, none runs now and the
    // next one is tomorrow's.
    clock.set('2026-11-25T11:00:00Z');
    assert.equal(await ctx.app.services.dataExports.scheduleDue(), 0);
    await settle();
    assert.equal((await api('GET', `${HISTORY}?config_id=${config.id}`, user.key)).data.meta.total, 2);
    const after = (await api('GET', SETTINGS, user.key)).data.find((c: Json) => c.id === config.id);
    assert.equal(after.next_run_at, '2026-11-26T10:30:00.000Z');
    await api('DELETE', `${SETTINGS}/${config.id}`, user.key);
    clock.set(START);
  });

  test('run-now queues one run at once; its file equals GET /api/trends for the same filters', async () => {
    const columns = ['title', 'volume', 'category'];
    const config = await save({
      is_active: false,
      selected_fields: columns,
      config: awsConfig({ filters: { period: '7d', sort_by: 'name', order: 'asc', limit: 10 } }),
    });
    const res = await api('POST', runNowPath(config.id), user.key);
    assert.equal(res.statusCode, 202);
    assert.equal(res.data.success, true);
    assert.equal(res.data.status, 'queued');
    assert.ok(Number.isInteger(res.data.execution_log_id));
    await settle();
    const run = await historyRow(res.data.execution_log_id);
    assert.equal(run.status, 'succeeded');
    assert.equal(run.origin, 'manual');
    assert.equal(run.config_id, config.id);
    const key = new URL(run.file_url).pathname.split('/').slice(2).join('/');
    const [header, ...rows] = parseCsv(s3.objects.get(`exports-bucket/${key}`)!.body.toString('utf8'));
    assert.deepEqual(header, columns);
    assert.deepEqual(rows, await expectedCells('period=7d&sort_by=name&order=asc&limit=10', columns));
    await api('DELETE', `${SETTINGS}/${config.id}`, user.key);
  });

  test('a failing destination records failed with a readable error, is retried with backoff, and may recover', async () => {
    const config = await save({ is_active: false, config: awsConfig() });
    s3.failNext(1, 503, 'ServiceUnavailable');
    const id = await runNow(config.id);
    await settle();
    const failed = await historyRow(id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts, 1);
    assert.equal(failed.completed_at, null, 'not over: it will be retried');
    assert.equal(
      failed.error_message,
      'The storage service refused the upload with ServiceUnavailable (HTTP 503).',
    );
    const delay = Date.parse(failed.next_attempt_at) - clock.now();
    assert.ok(delay >= 15_000 && delay <= 30_000, `first retry after 15–30 s, got ${delay} ms`);
    // While a run is open, run-now → 409.
    const busy = await api('POST', runNowPath(config.id), user.key);
    assertProblem(busy, 409);
    assert.equal(busy.data.code, 'export_run_in_progress');
    // Not before its time.
    clock.advance(delay - 1000);
    await settle();
    assert.equal((await historyRow(id)).attempts, 1);
    clock.advance(1000);
    await settle();
    const recovered = await historyRow(id);
    assert.equal(recovered.status, 'succeeded', JSON.stringify(recovered));
    assert.equal(recovered.attempts, 2);
    assert.equal(recovered.error_message, null);
    // Every attempt writes the run's one file name (the time it was queued), so a retry replaces, never adds.
    assert.ok(
      recovered.file_url.endsWith(`/${fileName(Date.parse(recovered.created_at), id, 'csv')}`),
      recovered.file_url,
    );
    assert.equal(recovered.next_attempt_at, null);
    assert.deepEqual(await eventsFor(id), ['export.run.finished']);
    await api('DELETE', `${SETTINGS}/${config.id}`, user.key);
    clock.set(START);
  });

  test('a destination that keeps failing is retried with growing delays and the final failure is recorded', async () => {
    const config = await save({ is_active: false, config: awsConfig() });
    s3.failNext(100, 500, 'InternalError');
    const id = await runNow(config.id);
    await settle();
    const delays: number[] = [];
    for (;;) {
      const row = await historyRow(id);
      if (row.completed_at !== null) break;
      assert.equal(row.status, 'failed');
      const delay = Date.parse(row.next_attempt_at) - clock.now();
      delays.push(delay);
      clock.advance(delay);
      await settle();
    }
    s3.failNext(0, 0, '');
    const final = await historyRow(id);
    assert.equal(final.status, 'failed');
    assert.equal(final.attempts, 8);
    assert.equal(final.next_attempt_at, null);
    assert.equal(
      final.error_message,
      'The storage service refused the upload with InternalError (HTTP 500).',
    );
    assert.equal(delays.length, 7);
    delays.forEach((delay, i) => {
      const base = 30_000 * 2 ** i;
      assert.ok(
        delay >= base / 2 && delay <= base,
        `retry ${i + 1}: ${delay} ms within [${base / 2}, ${base}]`,
      );
    });
    assert.deepEqual(await eventsFor(id), ['export.run.failed'], 'one event, for the final failure');
    await api('DELETE', `${SETTINGS}/${config.id}`, user.key);
    clock.set(START);
  });

  test('a wrong secret is refused by the store’s signature check: failed at once, never retried', async () => {
    const before = s3.requests.length;
    const config = await save({ is_active: false, config: awsConfig({ secret_access_key: WRONG_SECRET }) });
    const id = await runNow(config.id);
    await settle();
    const run = await historyRow(id);
    assert.equal(run.status, 'failed');
    assert.notEqual(run.completed_at, null);
    assert.equal(run.attempts, 1);
    assert.equal(
      run.error_message,
      'The storage service refused the upload with SignatureDoesNotMatch (HTTP 403): check the secret access key.',
    );
    assert.ok(!run.error_message.includes(PROVIDER_MARKER));
    const seen = s3.requests.slice(before);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.signed, false);
    assert.deepEqual(await eventsFor(id), ['export.run.failed']);
    await api('DELETE', `${SETTINGS}/${config.id}`, user.key);
  });

  test('gcp: Cloud Storage’s XML API with HMAC keys (region auto), JSON Lines', async () => {
    const config = await save({
      destination: 'gcp',
      is_active: false,
      selected_fields: ['name', 'volume', 'overall_trend'],
      config: {
        bucket: 'gcs-bucket',
        access_key_id: GCS.accessKeyId,
        secret_access_key: GCS.secret,
        endpoint: gcs.url,
        format: 'jsonl',
        filters: { limit: 4 },
      },
    });
    assert.equal(config.config.region, 'auto');
    const id = await runNow(config.id);
    await settle();
    const run = await historyRow(id);
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    assert.match(run.file_url, /\/gcs-bucket\/crestwatch-trends-\d{8}T\d{6}Z-\d+\.jsonl$/);
    const stored = [...gcs.objects.values()].at(-1)!;
    assert.equal(stored.contentType, 'application/x-ndjson; charset=utf-8');
    const lines = stored.body
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const api24h = (await api('GET', '/api/trends?limit=4', user.key)).data.trends as Json[];
    assert.deepEqual(
      lines,
      api24h.map((t) => ({ name: t.title, volume: t.volume, overall_trend: t.overall_trend })),
    );
    assert.ok(gcs.requests.every((r) => r.signed));
    // Without an endpoint, Cloud Storage itself (gs:// URLs); saving needs no network.
    const real = await save({
      destination: 'gcp',
      is_active: false,
      config: { bucket: 'gcs-bucket', access_key_id: GCS.accessKeyId, secret_access_key: GCS.secret },
    });
    assert.equal(real.config.endpoint, null);
    for (const c of [config, real]) await api('DELETE', `${SETTINGS}/${c.id}`, user.key);
  });

  test('deleting a configuration keeps its history (config_id null); a run waiting for a retry ends failed at once', async () => {
    const config = await save({ is_active: false, config: awsConfig() });
    const done = await runNow(config.id);
    await settle();
    s3.failNext(1, 503, 'SlowDown');
    clock.advance(60_000);
    const open = await runNow(config.id);
    await settle();
    assert.equal((await historyRow(open)).completed_at, null);
    assert.equal((await api('DELETE', `${SETTINGS}/${config.id}`, user.key)).statusCode, 204);
    // Before its next attempt was due: the history does not show a run that will not happen.
    const closed = await historyRow(open);
    assert.equal(closed.status, 'failed');
    assert.equal(closed.next_attempt_at, null);
    assert.notEqual(closed.completed_at, null);
    // It ends as any failed run does: the feed gets export.run.failed (once, the job does not add another).
    assert.deepEqual(await eventsFor(open), ['export.run.failed']);
    assertProblem(await api('DELETE', `${SETTINGS}/${config.id}`, user.key), 404);
    assertProblem(await api('POST', runNowPath(config.id), user.key), 404);
    clock.advance(HOUR);
    await settle();
    const kept = await historyRow(done);
    assert.equal(kept.config_id, null);
    assert.equal(kept.status, 'succeeded');
    const ended = await historyRow(open);
    assert.equal(ended.status, 'failed');
    assert.equal(ended.error_message, 'The export configuration was deleted before this run finished.');
    assert.notEqual(ended.completed_at, null);
    assert.deepEqual(await eventsFor(open), ['export.run.failed']);
    clock.set(START);
  });

  test('a name that resolves to a metadata address at run time is refused (the agent’s lookup is guarded)', async () => {
    const port = new URL(s3.url).port;
    const original = { lookup: dns.lookup, promisesLookup: dns.promises.lookup };
    let target = '127.0.0.1';
    type Callback = (err: Error | null, address: unknown, family?: number) => void;
    dns.lookup = ((host: string, opts: { all?: boolean }, cb: Callback) => {
      if (!host.endsWith('.example.test')) {
        return (original.lookup as unknown as (h: string, o: unknown, c: Callback) => void)(host, opts, cb);
      }
      return opts?.all ? cb(null, [{ address: target, family: 4 }]) : cb(null, target, 4);
    }) as unknown as typeof dns.lookup;
    dns.promises.lookup = (async (host: string, opts: unknown) =>
      host.endsWith('.example.test')
        ? [{ address: target, family: 4 }]
        : (original.promisesLookup as (h: string, o: unknown) => unknown)(
            host,
            opts,
          )) as typeof dns.promises.lookup;
    const smtp = await smtpStandIn({ ...SMTP, tls: false });
    try {
      const before = s3.requests.length;
      const bucket = await save({
        is_active: false,
        config: awsConfig({ endpoint: `http://store.example.test:${port}` }),
      });
      const mail = await save({
        destination: 'email',
        is_active: false,
        config: {
          host: 'mail.example.test',
          port: smtp.port,
          security: 'none',
          username: SMTP.user,
          password: SMTP.password,
          from: 'exports@example.com',
          to: 'ops@example.com',
        },
      });
      target = '169.254.169.254';
      const runs = [await runNow(bucket.id), await runNow(mail.id)];
      await settle();
      for (const id of runs) {
        const run = await historyRow(id);
        assert.equal(run.status, 'failed');
        assert.notEqual(run.completed_at, null, 'a refusal is final');
        assert.match(run.error_message, /not allowed.*169\.254\.169\.254.*metadata/);
      }
      assert.equal(s3.requests.length, before, 'nothing reached the store');
      assert.equal(smtp.logins.length, 0, 'nothing reached the mail server');
      for (const c of [bucket, mail]) await api('DELETE', `${SETTINGS}/${c.id}`, user.key);
    } finally {
      dns.lookup = original.lookup;
      dns.promises.lookup = original.promisesLookup;
      await smtp.close();
    }
  });

  test('a disabled account’s due runs are not queued and hold up no other (a whole page of them); re-enabled, its run is queued', async () => {
    clock.set(START);
    const admin = (userId: number, active: boolean) =>
      call(ctx.app, 'PATCH', `/api/admin/users/${userId}`, {
        key: ctx.operatorKey,
        body: { is_active: active },
      });
    // 5 × 20 disabled accounts' configurations, due a minute before the enabled one: the scheduler's first page
    // (100 rows) holds none it may queue.
    const idle: { user: { userId: number; key: string }; ids: number[] }[] = [];
    for (let u = 0; u < 5; u++) {
      const owner = await createUser(ctx, 'enterprise');
      const ids: number[] = [];
      for (let c = 0; c < 20; c++) {
        ids.push(
          (await save({ schedule_time: '10:29', config: awsConfig({ prefix: `idle-${u}` }) }, owner.key)).id,
        );
      }
      idle.push({ user: owner, ids });
    }
    const late = await createUser(ctx, 'enterprise');
    const lateConfig = await save(
      { schedule_time: '10:29', config: awsConfig({ prefix: 'late' }) },
      late.key,
    );
    const mine = await save({ schedule_time: '10:30', config: awsConfig({ prefix: 'enabled' }) });
    for (const owner of [...idle.map((i) => i.user), late]) {
      assert.equal((await admin(owner.userId, false)).statusCode, 200);
    }
    try {
      clock.set('2026-11-21T10:30:00Z');
      assert.equal(await ctx.app.services.dataExports.scheduleDue(), 1, 'only the enabled account’s run');
      await settle();
      assert.equal((await api('GET', `${HISTORY}?config_id=${mine.id}`, user.key)).data.meta.total, 1);
      // Re-enabled within its slot's grace, the account's run that stayed due is queued.
      assert.equal((await admin(late.userId, true)).statusCode, 200);
      clock.set('2026-11-21T10:30:30Z');
      assert.equal(await ctx.app.services.dataExports.scheduleDue(), 1, 'the re-enabled account’s run');
      await settle();
      const runs = (await api('GET', `${HISTORY}?config_id=${lateConfig.id}`, late.key)).data.history;
      assert.equal(runs.length, 1);
      assert.equal(runs[0].status, 'succeeded', JSON.stringify(runs[0]));
    } finally {
      clock.set(START);
      for (const { user: owner, ids } of idle) {
        assert.equal((await admin(owner.userId, true)).statusCode, 200);
        for (const id of ids) await api('DELETE', `${SETTINGS}/${id}`, owner.key);
      }
      await api('DELETE', `${SETTINGS}/${lateConfig.id}`, late.key);
      await api('DELETE', `${SETTINGS}/${mine.id}`, user.key);
    }
  });
});

describe('e-mail', () => {
  let smtp: SmtpStandIn;
  before(async () => {
    smtp = await smtpStandIn({ ...SMTP, tls: false });
  });
  after(async () => smtp?.close());

  const emailConfig = (extra: Record<string, unknown> = {}) => ({
    host: '127.0.0.1',
    port: smtp.port,
    security: 'none',
    username: SMTP.user,
    password: SMTP.password,
    from: 'exports@example.com',
    to: ['ops@example.com', 'data@example.com'],
    filters: { limit: 5, sort_by: 'velocity' },
    ...extra,
  });

  test('sends the CSV as an attachment over SMTP with the login; the password is masked', async () => {
    const config = await save({ destination: 'email', is_active: false, config: emailConfig() });
    assert.equal(config.config.password, '••••');
    assert.equal(config.config.port, smtp.port);
    const id = await runNow(config.id);
    await settle();
    const run = await historyRow(id);
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    assert.equal(run.file_url, 'mailto:ops@example.com,data@example.com');
    assert.deepEqual(smtp.logins.at(-1), { user: SMTP.user, ok: true });
    const message = smtp.messages.at(-1)!;
    assert.equal(message.from, 'exports@example.com');
    assert.deepEqual(message.to, ['ops@example.com', 'data@example.com']);
    assert.match(message.raw, /Subject: Crestwatch trends export 2026-11-21/);
    const attachment = attachmentOf(message.raw);
    assert.ok(attachment, 'an attachment');
    assert.match(attachment.filename, /^crestwatch-trends-\d{8}T\d{6}Z-\d+\.csv$/);
    assert.match(attachment.headers, /text\/csv/);
    const [header, ...rows] = parseCsv(attachment.content);
    assert.equal(header!.length, 20); // every TrendItem field (velocity_window since metrics version 13)
    assert.deepEqual(rows, await expectedCells('sort_by=velocity&limit=5', header!));
    await api('DELETE', `${SETTINGS}/${config.id}`, user.key);
  });

  test('a wrong password: failed at once with a readable error (no server text)', async () => {
    const config = await save({
      destination: 'email',
      is_active: false,
      config: emailConfig({ password: WRONG_SECRET }),
    });
    const id = await runNow(config.id);
    await settle();
    const run = await historyRow(id);
    assert.equal(run.status, 'failed');
    assert.notEqual(run.completed_at, null);
    assert.equal(run.error_message, 'The SMTP server refused the user name or password (SMTP 535).');
    await api('DELETE', `${SETTINGS}/${config.id}`, user.key);
  });

  test('STARTTLS is verified: a self-signed certificate is refused with a readable error', async () => {
    const tls = await smtpStandIn({ ...SMTP, tls: true });
    try {
      const config = await save({
        destination: 'email',
        is_active: false,
        config: emailConfig({ port: tls.port, security: 'starttls' }),
      });
      const id = await runNow(config.id);
      await settle();
      const run = await historyRow(id);
      assert.equal(run.status, 'failed');
      assert.notEqual(run.completed_at, null, JSON.stringify(run));
      assert.match(run.error_message, /TLS/);
      assert.equal(tls.messages.length, 0);
      assert.equal(tls.logins.length, 0, 'no login before TLS');
      await api('DELETE', `${SETTINGS}/${config.id}`, user.key);
    } finally {
      await tls.close();
    }
  });
});

describe('scheduler across instances', { skip: !usingPostgres && 'PostgreSQL only' }, () => {
  test('two instances calling scheduleDue at once queue a due run exactly once', async () => {
    clock.set(START);
    const second = await buildTestApp({ database: ctx.database, operatorKey: ctx.operatorKey, clock });
    try {
      const config = await save({ schedule_time: '10:45', config: awsConfig() });
      clock.set('2026-11-21T10:45:00Z');
      const counts = await Promise.all([
        ctx.app.services.dataExports.scheduleDue(),
        second.app.services.dataExports.scheduleDue(),
        ctx.app.services.dataExports.scheduleDue(),
        second.app.services.dataExports.scheduleDue(),
      ]);
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        1,
      );
      await settle();
      const runs = (await api('GET', `${HISTORY}?config_id=${config.id}`, user.key)).data;
      assert.equal(runs.meta.total, 1);
      assert.equal(runs.history[0].status, 'succeeded');
      await api('DELETE', `${SETTINGS}/${config.id}`, user.key);
    } finally {
      await second.app.close();
      clock.set(START);
    }
  });
});

describe('secrets', () => {
  test('no secret appears in any response or log line', () => {
    assert.ok(bodies.length > 50);
    assert.deepEqual(leaks(bodies.join('\n'), SECRETS), []);
    assert.ok(ctx.logs.length > 0, 'logs were captured');
    assert.deepEqual(leaks(ctx.logs.join(''), SECRETS), []);
    assert.ok(!ctx.logs.join('').includes(PROVIDER_MARKER), 'no provider text in the logs');
  });
});
