// `crestwatch secret-key rotate`: every stored secret re-encrypted from OLD_SECRET_KEY to SECRET_KEY in one
// go; the app on the new key still signs, reaches providers and replays; a wrong key or one unreadable value
// changes nothing; a second run is harmless. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { SEALED_COLUMNS } from '../../src/cli/stores/sealed-values.ts';
import type { Database } from '../../src/database.ts';
import { SecretBox, sha256Hex } from '../../src/platform/crypto.ts';
import { openDatabase } from '../../src/platform/db/index.ts';
import { buildTestApp, call, createUser, type Json } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { N8N_KEY, type N8nStandIn, n8nStandIn } from '../modules/integrations/workflow-stand-in.ts';
import { type Receiver, startReceiver } from '../modules/webhooks/receiver.ts';

const OLD_KEY = 'old-secret-key-0123456789abcdef0123456789ab';
const NEW_KEY = 'new-secret-key-fedcba9876543210fedcba987654';
const WRONG_KEY = 'wrong-secret-key-00000000000000000000000000';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG+rotateSECRET1';
const CHAT_TOKEN = 'xoxb-chat-access-token-rotate-1';
const CHAT_REFRESH = 'xoxe-chat-refresh-token-rotate-1';
const VERIFIER = 'pkce-verifier-rotate-0123456789abcdefghijklmnop';
const ENV = { OUTBOUND_ALLOWLIST: '127.0.0.0/8' };

/** Every sealed value in the database, by `table.column#id`. */
async function sealedValues(database: TestDatabase): Promise<Map<string, string>> {
  const handle = openDatabase<Database>(database.config);
  const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const values = new Map<string, string>();
  try {
    for (const { table, column } of SEALED_COLUMNS) {
      const rows = await db.selectFrom(table).select(['id', column]).where(column, 'is not', null).execute();
      for (const row of rows) values.set(`${table}.${column}#${row.id}`, String(row[column]));
    }
  } finally {
    await handle.close();
  }
  return values;
}

function openAll(values: Map<string, string>, key: string): Map<string, string> {
  const box = new SecretBox(key);
  return new Map([...values].map(([where, sealed]) => [where, box.decrypt(sealed)]));
}

function cliFor(database: TestDatabase) {
  return (oldKey: string | undefined, ...args: string[]) =>
    spawnSync(process.execPath, ['bin/crestwatch.mjs', 'secret-key', 'rotate', ...args], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        SECRET_KEY: NEW_KEY,
        OLD_SECRET_KEY: oldKey,
        DATABASE_POOL_SIZE: '2',
        SOURCES: 'none',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
}

describe('crestwatch secret-key rotate', () => {
  let database: TestDatabase;
  let cli: ReturnType<typeof cliFor>;
  let receiver: Receiver;
  let tool: N8nStandIn;
  let operatorKey: string;
  let user: { userId: number; key: string };
  let webhook: { id: number; first: string; second: string };
  let signingSecret: string;
  let idempotent: Json;
  let before_: Map<string, string>;

  before(async () => {
    database = await createTestDatabase();
    cli = cliFor(database);
    receiver = await startReceiver();
    tool = await n8nStandIn();
    // The service as it ran with the old key: one of each kind of stored secret.
    const ctx = await buildTestApp({ database, env: { ...ENV, SECRET_KEY: OLD_KEY } });
    operatorKey = ctx.operatorKey;
    try {
      user = await createUser(ctx, 'enterprise');
      const created = await call(ctx.app, 'POST', '/api/integrations/webhooks', {
        key: user.key,
        body: {
          url: receiver.url,
          trigger_type: 'trend_velocity',
          delivery_mode: 'instant_stream',
          threshold_value: 60,
          cooldown_seconds: 60,
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const rotated = await call(
        ctx.app,
        'POST',
        `/api/integrations/webhooks/${created.data.id}/rotate-secret`,
        {
          key: user.key,
        },
      );
      assert.equal(rotated.statusCode, 201, rotated.body);
      webhook = { id: created.data.id, first: created.data.secret, second: rotated.data.secret };

      const connected = await call(ctx.app, 'POST', '/api/integrations/workflow/connect', {
        key: user.key,
        body: { api_key: N8N_KEY, api_base_url: tool.url, include_metadata: false },
      });
      assert.equal(connected.statusCode, 200, connected.body);
      signingSecret = connected.data.signing_secret;

      const saved = await call(ctx.app, 'POST', '/api/user/export/settings', {
        key: user.key,
        body: {
          destination: 'aws',
          schedule: 'daily',
          schedule_time: '10:30',
          config: {
            bucket: 'exports',
            region: 'us-east-1',
            access_key_id: 'AKIAROTATE0000000001',
            secret_access_key: AWS_SECRET,
            endpoint: receiver.url.replace('/hook', ''),
          },
        },
      });
      assert.equal(saved.statusCode, 201, saved.body);

      const key = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        body: { name: 'made before the rotation' },
        headers: { 'idempotency-key': 'rotate-1' },
      });
      assert.equal(key.statusCode, 201, key.body);
      idempotent = key.data;

      // OAuth tokens and a PKCE verifier, sealed as the integrations seal them.
      const box = ctx.app.services.box;
      const now = Date.now();
      await ctx.app.services.db
        .insertInto('integration_connections')
        .values({
          user_id: user.userId,
          provider: 'chat',
          status: 'active',
          broken_reason: null,
          access_token_sealed: box.encrypt(CHAT_TOKEN),
          refresh_token_sealed: box.encrypt(CHAT_REFRESH),
          token_expires_at: null,
          scope: null,
          account_id: null,
          account_name: null,
          details: '{}',
          selection: null,
          settings: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await ctx.app.services.db
        .insertInto('integration_oauth_states')
        .values({
          user_id: user.userId,
          provider: 'chat',
          state_hash: sha256Hex('state-rotate-1'),
          verifier_sealed: box.encrypt(VERIFIER),
          created_at: now,
          expires_at: now + 600_000,
          used_at: null,
        })
        .execute();
    } finally {
      await ctx.close();
    }
    before_ = await sealedValues(database);
  });

  after(async () => {
    await receiver.close();
    await tool.close();
    await database.drop();
  });

  test('every kind of stored secret is found, each sealed with the old key', () => {
    const columns = new Set([...before_.keys()].map((k) => k.split('#')[0]));
    assert.deepEqual(
      [...columns].sort(),
      SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`).sort(),
      'the setup stores a value in every sealed column',
    );
    const plain = [...openAll(before_, OLD_KEY).values()];
    for (const secret of [webhook.first, webhook.second, N8N_KEY, signingSecret, CHAT_TOKEN, VERIFIER]) {
      assert.ok(plain.includes(secret), `${secret.slice(0, 12)}… is stored`);
    }
  });

  test('without OLD_SECRET_KEY, or with the same key twice, it is a usage error', () => {
    const missing = cli(undefined);
    assert.equal(missing.status, 2, missing.stderr);
    assert.match(missing.stderr, /needs the key the service ran with in OLD_SECRET_KEY/);
    const same = cli(NEW_KEY);
    assert.equal(same.status, 2, same.stderr);
    assert.match(same.stderr, /OLD_SECRET_KEY and SECRET_KEY are the same key/);
  });

  test('a wrong old key is refused, naming each column and its row count, and changes nothing', async () => {
    const run = cli(WRONG_KEY);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.ok(
      run.stderr.includes(
        `refusing to rotate: ${before_.size} stored values open with neither OLD_SECRET_KEY nor SECRET_KEY ` +
          `(${SEALED_COLUMNS.map((c) => `${c.table}.${c.column}: 1 row`).join(', ')})`,
      ),
      run.stderr,
    );
    assert.match(run.stderr, /Nothing was changed/);
    assert.deepEqual(await sealedValues(database), before_);
  });

  test('one unreadable value among good ones: refused, and the values before it are rolled back', async () => {
    // The last column in rotation order, so every other value would already have been rewritten.
    const handle = openDatabase<Database>(database.config);
    const last = await handle.db
      .selectFrom('idempotency_keys')
      .select(['id', 'response_body'])
      .where('response_body', 'is not', null)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const garbled = new SecretBox(WRONG_KEY).encrypt('{}');
    await handle.db
      .updateTable('idempotency_keys')
      .set({ response_body: garbled })
      .where('id', '=', last.id)
      .execute();
    try {
      const run = cli(OLD_KEY);
      assert.equal(run.status, 1, run.stdout + run.stderr);
      assert.match(
        run.stderr,
        /refusing to rotate: 1 stored value opens with neither .*\(idempotency_keys\.response_body: 1 row\)/,
      );
      const now = await sealedValues(database);
      assert.deepEqual(now, new Map([...before_, [`idempotency_keys.response_body#${last.id}`, garbled]]));
    } finally {
      await handle.db
        .updateTable('idempotency_keys')
        .set({ response_body: last.response_body })
        .where('id', '=', last.id)
        .execute();
      await handle.close();
    }
  });

  test('--dry-run counts what would change and writes nothing', async () => {
    const run = cli(OLD_KEY, '--dry-run');
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /^webhook_subscriptions\.secret: would re-encrypt 1, already on the new key 0$/m,
    );
    assert.ok(
      run.stdout.includes(
        `Dry run: ${before_.size} values would be re-encrypted, 0 already are; nothing was changed.`,
      ),
      run.stdout,
    );
    assert.deepEqual(await sealedValues(database), before_);
  });

  test('rotates every value; the app on the new key signs, reaches the workflow tool and replays', async () => {
    const run = cli(OLD_KEY);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /^workflow_connections\.api_key_sealed: re-encrypted 1, already on the new key 0$/m,
    );
    assert.ok(run.stdout.includes(`Re-encrypted ${before_.size} values (0 already were).`), run.stdout);
    assert.ok(run.stderr.includes(`rotate: done, ${before_.size} values in `), run.stderr);

    const rotated = await sealedValues(database);
    assert.deepEqual([...rotated.keys()], [...before_.keys()]);
    for (const [where, sealed] of rotated)
      assert.notEqual(sealed, before_.get(where), `${where} was rewritten`);
    assert.deepEqual(
      openAll(rotated, NEW_KEY),
      openAll(before_, OLD_KEY),
      'the same secrets under the new key',
    );
    assert.throws(() => openAll(rotated, OLD_KEY), 'the old key opens none of them');

    const ctx = await buildTestApp({ database, operatorKey, env: { ...ENV, SECRET_KEY: NEW_KEY } });
    try {
      // Webhook signatures: the current secret and the previous one (in its grace period) both still verify.
      const sent = await call(ctx.app, 'POST', `/api/integrations/webhooks/${webhook.id}/test`, {
        key: user.key,
      });
      assert.equal(sent.data.status, 'succeeded', sent.body);
      const got = receiver.received.at(-1)!;
      const headers = got.headers as Record<string, string>;
      for (const secret of [webhook.second, webhook.first]) {
        assert.equal((new Webhook(secret).verify(got.body, headers) as Json).event, 'webhook.test');
      }
      // The workflow tool's API key opens and is sent.
      const workflows = await call(ctx.app, 'GET', '/api/integrations/workflow/workflows', { key: user.key });
      assert.equal(workflows.statusCode, 200, workflows.body);
      assert.equal(tool.requests.at(-1)!.headers['x-n8n-api-key'], N8N_KEY);
      // The stored idempotent response opens: the replay shows the same key.
      const replay = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        body: { name: 'made before the rotation' },
        headers: { 'idempotency-key': 'rotate-1' },
      });
      assert.equal(replay.statusCode, 201, replay.body);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.data.api_key, idempotent.api_key);
    } finally {
      await ctx.close();
    }
    const exportSecrets = [...openAll(rotated, NEW_KEY)].find(([where]) =>
      where.startsWith('export_configs'),
    );
    assert.equal(JSON.parse(exportSecrets![1]).secret_access_key, AWS_SECRET);
  });

  test('running it again finds every value on the new key and changes nothing', async () => {
    const rotated = await sealedValues(database);
    const run = cli(OLD_KEY);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.stdout.includes(`Re-encrypted 0 values (${before_.size} already were).`), run.stdout);
    assert.deepEqual(await sealedValues(database), rotated);
  });
});

describe('the list of sealed columns', () => {
  // Where each file's box.encrypt(…) output is stored; a file that starts encrypting must be added here and,
  // if it stores the value, to SEALED_COLUMNS, or a rotation would leave its values unreadable.
  const STORES_INTO: Record<string, string[]> = {
    'src/modules/webhooks/subscriptions.ts': ['webhook_subscriptions'],
    // Also the OAuth confirm token, which goes to the browser and is never stored.
    'src/modules/integrations/oauth.ts': ['integration_connections', 'integration_oauth_states'],
    'src/modules/integrations/workflow/service.ts': ['workflow_connections'],
    'src/modules/exports/service.ts': ['export_configs'],
    'src/platform/idempotency.ts': ['idempotency_keys'],
  };

  function sourceFiles(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return entry.name.endsWith('.ts') ? [full.split(path.sep).join('/')] : [];
    });
  }

  test('every file that seals a value with the SecretBox is accounted for', () => {
    const sealing = sourceFiles('src').filter(
      (file) =>
        file !== 'src/platform/crypto.ts' &&
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .some((line) => !/^\s*(\/\/|\*)/.test(line) && /\bbox\.encrypt\(/.test(line)),
    );
    assert.deepEqual(sealing.sort(), Object.keys(STORES_INTO).sort());
    const tables = new Set<string>(SEALED_COLUMNS.map((c) => c.table));
    for (const table of Object.values(STORES_INTO).flat())
      assert.ok(tables.has(table), `${table} is rotated`);
  });
});
