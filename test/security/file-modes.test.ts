// Files and folders the service creates hold secrets and every user's data: only its own user may read them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { buildTestApp } from '../helpers/app.ts';

describe('files the service creates', () => {
  test('the data folder is 0700; the SQLite files, the secret key and the bootstrap key are 0600', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-modes-'));
    const dataDir = path.join(root, 'nested', 'data');
    const ctx = await buildTestApp({
      env: {
        DATABASE_URL: `sqlite:${path.join(dataDir, 'crestwatch.db')}`,
        DATA_DIR: dataDir,
        SECRET_KEY: '',
        BOOTSTRAP_API_KEY: '',
        REDIS_URL: '',
      },
    });
    try {
      const mode = (file: string) => (fs.statSync(path.join(dataDir, file)).mode & 0o777).toString(8);
      assert.equal(mode('.'), '700');
      assert.equal(mode('..'), '700', 'folders created on the way too');
      for (const file of ['crestwatch.db', 'crestwatch.db-wal', 'secret.key', 'bootstrap-key.txt']) {
        assert.equal(mode(file), '600', file);
      }
    } finally {
      await ctx.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
