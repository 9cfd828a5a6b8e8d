// A fresh database per test app: a temporary SQLite file, or a new PostgreSQL schema when
// TEST_DATABASE_URL is set. Runs never collide and leave nothing behind.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.ts';

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);
export const testRedisUrl = process.env.TEST_REDIS_URL || undefined;

export interface TestDatabase {
  config: DatabaseConfig;
  /** The DATABASE_URL form of `config`, for child processes. */
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-test-'));
  if (!usingPostgres) {
    const file = path.join(dataDir, 'test.db');
    return {
      config: { kind: 'sqlite', path: file },
      url: `sqlite:${file}`,
      dataDir,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const base = process.env.TEST_DATABASE_URL!;
  const schema = `cwt_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    config: { kind: 'postgres', url: url.toString() },
    url: url.toString(),
    dataDir,
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function testRedisPrefix(): string {
  return `cwt:${process.pid}:${randomBytes(4).toString('hex')}:`;
}
