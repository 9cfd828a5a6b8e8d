import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { loggerOptions } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
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
    const app = Fastify({
      logger: { ...(loggerOptions(loadConfig({ LOG_LEVEL: 'warn' }), () => now) as object), stream },
    });
    registerErrorHandling(app);
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

describe('background failures while a dependency is away', () => {
  const refused = () =>
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  test('the process logger writes each failure message once per 10 s during an outage, other warnings always', async () => {
    const lines: { level: number; msg: string; suppressed?: number; err?: { message: string } }[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    });
    let now = 1_700_000_000_000;
    const config = loadConfig({ LOG_LEVEL: 'info' });
    const app = Fastify({ logger: { ...(loggerOptions(config, () => now) as object), stream } });
    try {
      // An 8 s outage: the engine fails every second, the job worker twice a second.
      for (let t = 0; t < 8_000; t += 500) {
        if (t % 1_000 === 0) app.log.warn({ err: refused() }, 'trend engine failed');
        app.log.warn({ err: refused() }, 'job worker poll failed');
        now += 500;
      }
      const about = (msg: string) => lines.filter((l) => l.msg.startsWith(msg));
      assert.equal(about('trend engine failed').length, 1);
      assert.equal(about('job worker poll failed').length, 1);
      assert.equal(about('trend engine failed')[0]!.err?.message, 'connect ECONNREFUSED 127.0.0.1:5432');
      // Not an outage: written every time. Nor is anything below warn throttled.
      app.log.warn({ err: new Error('boom') }, 'trend engine failed');
      app.log.warn({ err: new Error('boom') }, 'trend engine failed');
      app.log.info({ err: refused() }, 'retrying');
      app.log.info({ err: refused() }, 'retrying');
      assert.equal(about('trend engine failed').length, 3);
      assert.equal(about('retrying').length, 2);
      // Ten seconds on, the next line says how many were left out.
      now += 10_000;
      app.log.warn({ err: refused() }, 'trend engine failed');
      const last = about('trend engine failed').at(-1)!;
      assert.equal(last.suppressed, 7);
      assert.match(last.msg, /^trend engine failed \(and 7 more since the last such line, not logged\)$/);
    } finally {
      await app.close();
    }
  });
});
