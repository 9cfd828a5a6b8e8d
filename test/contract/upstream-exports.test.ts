// The SDK's export methods (get_export_settings, save_export_settings, delete_export_setting, run_export_now,
// get_export_history) against Crestwatch: each request as client.py sends it, each answer held field by field
// against the SDK model that parses it (models.py: ExportConfig, ExportHistory, ExportHistoryListResponse,
// ExportRunResponse), with a run delivered to an S3 stand-in. client.py's create-or-update form of
// save_export_settings (schedule "none" by default, `id` = config_id to update) parses ExportConfiguration.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.ts';
import { buildTestApp, createUser, type Json, type TestContext } from '../helpers/app.ts';
import { drainJobs } from '../helpers/jobs.ts';
import { type S3StandIn, s3StandIn } from '../modules/exports/stand-ins.ts';
import { seed } from '../modules/insights/fixtures.ts';
import { checkModel, checkType, MODELS } from './upstream-models.ts';

// models.py, as upstream-models.ts writes models down.
Object.assign(MODELS, {
  ExportConfig: {
    id: 'int',
    user_id: 'int',
    destination: 'str',
    config: 'dict',
    schedule: 'str',
    schedule_time: 'str',
    is_active: 'bool',
    selected_fields: 'list<str>',
    created_at: 'datetime',
    updated_at: 'datetime',
  },
  // The same SDK's save_export_settings(destination, selected_fields, config, schedule="none",
  // schedule_time=None, is_active=False, config_id=None) — "create or update" — parses this model.
  ExportConfiguration: {
    id: 'int',
    destination: 'str',
    config: 'dict',
    schedule: 'str',
    schedule_time: 'str?',
    is_active: 'bool',
    selected_fields: 'list<str>=',
    file_name_template: 'str?',
  },
  ExportHistory: {
    id: 'int',
    config_id: 'int?',
    status: 'str',
    file_url: 'str?',
    row_count: 'int?',
    error_message: 'str?',
    created_at: 'datetime?',
    completed_at: 'datetime?',
  },
  ExportHistoryListResponse: { history: 'list<ExportHistory>', meta: 'PaginationMeta?' },
  ExportRunResponse: { success: 'bool', message: 'str?', execution_log_id: 'int?', status: 'str?' },
});

/** requests' headers for the SDK's session (see upstream.test.ts). */
const SDK_HEADERS = {
  'user-agent': 'python-requests/2.32.3',
  'accept-encoding': 'gzip, deflate',
  accept: 'application/json',
  connection: 'keep-alive',
  'content-type': 'application/json',
};
const SECRET = 'sdk-contract-secret-Ak29Lq';

describe('the SDK’s export methods', () => {
  let ctx: TestContext;
  let s3: S3StandIn;
  let user: { userId: number; key: string };
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));

  async function sdk(method: 'GET' | 'POST' | 'DELETE', url: string, json?: string) {
    const res = await ctx.app.inject({
      method,
      url,
      headers: { ...SDK_HEADERS, 'x-api-key': user.key },
      ...(json !== undefined ? { payload: json } : {}),
    });
    assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${method} ${url}: ${res.body.slice(0, 300)}`);
    assert.ok(!res.body.includes(SECRET), 'the secret never comes back');
    return { status: res.statusCode, data: res.body ? (JSON.parse(res.body) as Json) : null };
  }

  const parses = (value: unknown, model: string) =>
    assert.deepEqual(
      model in MODELS ? checkModel(value, model) : checkType(value, model, model),
      [],
      `the SDK's ${model} would not parse the answer`,
    );

  before(async () => {
    s3 = await s3StandIn({
      accessKeyId: 'AKIASDK',
      secretAccessKey: SECRET,
      region: 'eu-west-1',
      buckets: ['sdk'],
    });
    ctx = await buildTestApp({ clock, env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    ctx.app.services.worker.start();
    user = await createUser(ctx, 'enterprise');
    await seed(ctx, clock.now());
    await ctx.app.services.engine.tick();
  });
  after(async () => {
    await ctx?.close();
    await s3?.close();
  });

  test('save, list, run now, history and delete parse with the SDK’s models', async () => {
    // save_export_settings(destination, config, schedule, schedule_time): is_active True, selected_fields [].
    const saved = await sdk(
      'POST',
      '/api/user/export/settings',
      JSON.stringify({
        destination: 'aws',
        config: {
          bucket: 'sdk',
          region: 'eu-west-1',
          access_key_id: 'AKIASDK',
          secret_access_key: SECRET,
          endpoint: s3.url,
        },
        schedule: 'daily',
        schedule_time: '06:00',
        is_active: true,
        selected_fields: [],
      }),
    );
    parses(saved.data, 'ExportConfig');
    const id = saved.data!.id as number;

    const listed = await sdk('GET', '/api/user/export/settings');
    assert.ok(Array.isArray(listed.data), 'the SDK takes a bare list as it is');
    parses(listed.data, 'list<ExportConfig>');

    // run_export_now: a POST without a body (the session still says JSON).
    const run = await sdk('POST', `/api/user/export/configurations/${id}/run-now`);
    parses(run.data, 'ExportRunResponse');
    assert.equal(run.data!.success, true);
    await drainJobs(ctx);

    const history = await sdk('GET', '/api/user/export/history?limit=20&offset=0');
    parses(history.data, 'ExportHistoryListResponse');
    const row = (history.data!.history as Json[]).find((h) => h.id === run.data!.execution_log_id);
    assert.equal(row?.status, 'succeeded', JSON.stringify(row));
    assert.equal(s3.objects.size, 1);

    // delete_export_setting: the SDK returns None for a 204.
    const deleted = await sdk('DELETE', `/api/user/export/settings/${id}`);
    assert.equal(deleted.status, 204);
    parses((await sdk('GET', '/api/user/export/settings')).data, 'list<ExportConfig>');
  });

  test('save_export_settings’ defaults (schedule "none") and its config_id update parse with ExportConfiguration', async () => {
    const config = {
      bucket: 'sdk',
      region: 'eu-west-1',
      access_key_id: 'AKIASDK',
      secret_access_key: SECRET,
      endpoint: s3.url,
    };
    // save_export_settings("aws", ["id", "name"], config): None values are dropped from the payload.
    const created = await sdk(
      'POST',
      '/api/user/export/settings',
      JSON.stringify({
        destination: 'aws',
        config,
        schedule: 'none',
        is_active: false,
        selected_fields: ['id', 'name'],
      }),
    );
    assert.equal(created.status, 201);
    parses(created.data, 'ExportConfiguration');
    assert.equal(created.data!.schedule, 'none');
    assert.equal(created.data!.next_run_at, null, 'never run on a schedule');
    const id = created.data!.id as number;

    // save_export_settings("aws", ["id"], config, schedule="daily", schedule_time="07:00", is_active=True,
    // config_id=id): the same configuration, updated.
    const updated = await sdk(
      'POST',
      '/api/user/export/settings',
      JSON.stringify({
        id,
        destination: 'aws',
        config,
        schedule: 'daily',
        schedule_time: '07:00',
        is_active: true,
        selected_fields: ['id'],
      }),
    );
    assert.equal(updated.status, 200);
    parses(updated.data, 'ExportConfiguration');
    assert.equal(updated.data!.id, id);
    assert.equal(updated.data!.schedule_time, '07:00');
    assert.deepEqual(updated.data!.selected_fields, ['id']);
    assert.equal(updated.data!.next_run_at, '2026-11-22T07:00:00.000Z');

    const listed = await sdk('GET', '/api/user/export/settings');
    parses(listed.data, 'list<ExportConfiguration>');
    assert.equal((listed.data as Json[]).filter((c) => c.id === id).length, 1);
    await sdk('DELETE', `/api/user/export/settings/${id}`);
  });
});
