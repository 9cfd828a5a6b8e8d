import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { registerErrorHandling } from '../../src/platform/error-handler.ts';
import { LogThrottle } from '../../src/platform/log-throttle.ts';

describe('LogThrottle', () => {
  test('writes the first occurrence of a kind, leaves out the rest of its window and counts them', () => {
    const throttle = new LogThrottle(10_000);
    assert.deepEqual(throttle.occurrence('db', 1_000), { write: true, suppressed: 0 });
    for (let t = 1_001; t < 11_000; t += 1_000)
      assert.deepEqual(throttle.occurrence('db', t), { write: false });
    // Another kind has its own window.
    assert.deepEqual(throttle.occurrence('redis', 5_000), { write: true, suppressed: 0 });
    assert.deepEqual(throttle.occurrence('db', 11_000), { write: true, suppressed: 10 });
    assert.deepEqual(throttle.occurrence('db', 60_000), { write: true, suppressed: 0 });
  });
});

describe('warnings while a dependency is away', () => {
  test('an outage is one warning line per 10 s with the count left out, while every request still gets its 503', async () => {
    const lines: { msg: string; suppressed?: number; err?: { message: string } }[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    });
    let now = 1_700_000_000_000;
    const app = Fastify({ logger: { level: 'warn', stream } });
    registerErrorHandling(app, () => now);
    app.get('/needs-db', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    const get = () => app.inject({ method: 'GET', url: '/needs-db' });
    try {
      for (let i = 0; i < 50; i++) {
        const res = await get();
        assert.equal(res.statusCode, 503);
        assert.equal(res.headers['retry-after'], '5');
        now += 100;
      }
      const warnings = () => lines.filter((l) => l.msg.startsWith('dependency unavailable'));
      assert.equal(warnings().length, 1);
      assert.equal(warnings()[0]!.err?.message, 'connect ECONNREFUSED 127.0.0.1:5432');
      now += 10_000;
      assert.equal((await get()).statusCode, 503);
      assert.equal(warnings().length, 2);
      assert.equal(warnings()[1]!.suppressed, 49);
      assert.match(warnings()[1]!.msg, /and 49 more since the last such line/);
    } finally {
      await app.close();
    }
  });
});
