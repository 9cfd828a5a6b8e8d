import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Progress } from '../../src/cli/progress.ts';

function sink() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (chunk: string) => chunks.push(chunk) } };
}

describe('progress', () => {
  test('without a terminal: a line every interval or every N items, then a final line', () => {
    let now = 0;
    const { chunks, stream } = sink();
    const progress = new Progress({
      label: 'ingest',
      total: 1000,
      unit: 'lines',
      stream,
      tty: false,
      intervalMs: 5000,
      everyItems: 100,
      now: () => now,
    });
    now = 1000;
    progress.update(100, 50);
    assert.equal(chunks.length, 0);
    progress.update(200, 100);
    assert.deepEqual(chunks, ['ingest: 20%, 100 lines, 100/s\n']);
    now = 6500;
    progress.update(300, 120);
    assert.equal(chunks.length, 2);
    assert.match(chunks[1]!, /^ingest: 30%, 120 lines/);
    now = 10_000;
    progress.finish('all good');
    progress.finish();
    assert.equal(chunks.at(-1), 'ingest: done, 120 lines in 10.0 s (12/s), all good\n');
    assert.equal(chunks.length, 3);
  });

  test('on a terminal: a bar redrawn in place at most every 100 ms', () => {
    let now = 0;
    const { chunks, stream } = sink();
    const progress = new Progress({
      label: 'process',
      total: 200,
      unit: 'signals',
      stream,
      tty: true,
      now: () => now,
    });
    now = 1000;
    progress.update(50, 50);
    progress.update(60, 60);
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0], `\rprocess [${'#'.repeat(7)}${'-'.repeat(21)}]  25.0%  50 signals, 50/s\x1b[K`);
    now = 1200;
    progress.update(200, 200);
    assert.match(chunks[1]!, /\[#{28}\] 100\.0%/);
    progress.finish();
    assert.match(chunks.at(-1)!, /^\rprocess: done, 200 signals in 1\.2 s .*\n$/);
  });
});
