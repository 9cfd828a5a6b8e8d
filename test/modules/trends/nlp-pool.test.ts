import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { analyseBatch } from '../../../src/modules/trends/analysis.ts';
import { ThreadedNlp } from '../../../src/modules/trends/nlp-pool.ts';

describe('NLP worker threads', () => {
  const pool = new ThreadedNlp(2);
  after(() => pool.close());

  test('worker threads give the same candidates and scores as the main thread, in order', async () => {
    const signals = Array.from({ length: 41 }, (_, i) => ({
      text:
        i % 2
          ? `I love the new #OpenAI model ${i}, Sam Altman says it is great`
          : `Terrible outage at Acme Cloud today ${i}`,
      title: i % 3 ? null : 'Breaking news',
      keywords: i % 5 ? null : ['cloud outage'],
      lang: 'en',
    }));
    assert.deepEqual(await pool.analyse(signals), analyseBatch(signals));
    assert.deepEqual(await pool.analyse([]), []);
  });

  test('threads start with the first batch, so a pool closed unused never started any', async () => {
    const unused = new ThreadedNlp(2);
    const threads = () => (unused as unknown as { pool: unknown }).pool;
    assert.deepEqual(await unused.analyse([]), []);
    assert.equal(threads(), null);
    await unused.close();
    assert.equal(threads(), null);
  });
});
