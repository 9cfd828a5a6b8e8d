import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { analyseBatch } from '../../../src/modules/text/analysis.ts';
import { ThreadedNlp } from '../../../src/modules/text/nlp-pool.ts';

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
    assert.deepEqual(await pool.analyse([]), analyseBatch([]));
  });

  test('threads start with the first batch, so a pool closed unused never started any', async () => {
    const unused = new ThreadedNlp(2);
    const threads = () => (unused as unknown as { pool: unknown }).pool;
    assert.deepEqual(await unused.analyse([]), analyseBatch([]));
    assert.equal(threads(), null);
    await unused.close();
    assert.equal(threads(), null);
  });

  test('warm() starts the threads and loads the model before any batch; analysis is unchanged after it', async () => {
    const warmed = new ThreadedNlp(1);
    const threads = () => (warmed as unknown as { pool: unknown }).pool;
    try {
      await warmed.warm();
      assert.notEqual(threads(), null, 'the threads run before the first batch');
      await warmed.warm(); // a second call starts nothing more
      const signals = [
        { text: 'Acme Cloud outage again, support never answers', title: null, keywords: null, lang: 'en' },
      ];
      assert.deepEqual(await warmed.analyse(signals), analyseBatch(signals));
    } finally {
      await warmed.close();
    }
    assert.equal(threads(), null);
  });

  test('a pool closed while its threads warm up waits for them and closes cleanly', async () => {
    const closing = new ThreadedNlp(2);
    const warming = closing.warm();
    await closing.close();
    await warming;
    assert.equal((closing as unknown as { pool: unknown }).pool, null);
  });
});
