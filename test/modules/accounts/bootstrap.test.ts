import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { generateApiKey } from '../../../src/modules/accounts/index.ts';
import { buildTestApp, call, TEST_SECRET_KEY } from '../../helpers/app.ts';

describe('operator bootstrap', () => {
  test('the first start of an empty embedded database writes an admin key to a 0600 file, never to the log', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-boot-'));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({ DATABASE_URL: `sqlite:${dir}/data/cw.db`, LOG_LEVEL: 'info' });
    const app = await buildApp(config, { logger: { level: 'info', stream }, background: false });
    try {
      const file = path.join(dir, 'data', 'bootstrap-key.txt');
      const key = fs.readFileSync(file, 'utf8').trim();
      assert.match(key, /^cw_[0-9A-Za-z]{40}$/);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.equal(fs.statSync(path.join(dir, 'data', 'secret.key')).mode & 0o777, 0o600);
      const log = lines.join('');
      assert.ok(log.includes(file), 'the log says where the key is');
      assert.ok(!log.includes(key), 'the log never holds the key');
      const profile = await call(app, 'GET', '/api/user/profile', { key });
      assert.equal(profile.statusCode, 200);
      assert.equal(profile.data.subscription.plan_name, 'enterprise');
      const keys = await call(app, 'GET', '/api/user/api-keys', { key });
      assert.deepEqual(keys.data.keys[0].permissions, ['read', 'write', 'ingest', 'admin']);
      assert.ok(!lines.join('').includes(key), 'requests with the key do not log it either');
    } finally {
      await app.close();
    }
    // A second start leaves the existing operator alone and writes no new key.
    fs.rmSync(path.join(dir, 'data', 'bootstrap-key.txt'));
    const again = await buildApp(config, { logger: false, background: false });
    await again.close();
    assert.ok(!fs.existsSync(path.join(dir, 'data', 'bootstrap-key.txt')));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('BOOTSTRAP_API_KEY creates an enterprise admin holding that key once, across restarts', async () => {
    const operatorKey = generateApiKey().key;
    const first = await buildTestApp({ operatorKey });
    const profile = await call(first.app, 'GET', '/api/user/profile', { key: operatorKey });
    assert.equal(profile.statusCode, 200);
    assert.equal(profile.data.subscription.plan_name, 'enterprise');
    await first.app.close();
    const second = await buildTestApp({ operatorKey, database: first.database });
    try {
      const keys = await call(second.app, 'GET', '/api/user/api-keys', { key: operatorKey });
      assert.equal(keys.data.keys.length, 1);
      assert.deepEqual(keys.data.keys[0].permissions, ['read', 'write', 'ingest', 'admin']);
    } finally {
      await second.close();
      await first.database.drop();
    }
    assert.ok(TEST_SECRET_KEY.length >= 32);
  });
});
