import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newWink } from '../../../src/modules/text/wink.ts';

const TEXT = "After today's quake, #Tokyo's trains run again: 5pm update at https://t.co/a1 :)";

function tokens(nlp: ReturnType<typeof newWink>) {
  const read = nlp.readDoc(TEXT).tokens();
  return { values: read.out(nlp.its.value), types: read.out(nlp.its.type) };
}

// The English model re-encodes its own state each time an instance is made (about fourfold): unguarded, the 16th
// instance of a thread takes seconds and hundreds of MB and the 21st throws "Invalid string length". The trends'
// tokenizer replaces its instance every 200,000 new chunks, so a long-running NLP thread makes many.
test('wink instances can be made again and again: the 30th is as quick and reads as the first', () => {
  const first = newWink([]);
  const expected = tokens(first);
  const slowest = { ms: 0, at: 0 };
  for (let i = 2; i <= 30; i++) {
    const started = performance.now();
    const nlp = newWink([]);
    const ms = performance.now() - started;
    if (ms > slowest.ms) Object.assign(slowest, { ms, at: i });
    if (i % 10 === 0) assert.deepEqual(tokens(nlp), expected, `instance ${i}`);
  }
  // Each takes about 0.1 s here; unguarded, the 20th alone took 2 s.
  assert.ok(slowest.ms < 1500, `instance ${slowest.at} took ${Math.round(slowest.ms)} ms`);
});
