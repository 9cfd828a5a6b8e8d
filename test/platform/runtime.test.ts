import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runtimeFlags, tuneRuntime } from '../../src/platform/runtime.ts';

describe('runtime flags', () => {
  it('on one or two cores the young generation is collected without helper threads', () => {
    assert.deepEqual(runtimeFlags(1, []), ['--no-parallel-scavenge']);
    assert.deepEqual(runtimeFlags(2, ['--enable-source-maps']), ['--no-parallel-scavenge']);
  });

  it('on more cores V8 keeps its parallel collector', () => {
    assert.deepEqual(runtimeFlags(3, []), []);
    assert.deepEqual(runtimeFlags(16, []), []);
  });

  it('a collector chosen on the command line is left as it is', () => {
    assert.deepEqual(runtimeFlags(2, ['--parallel-scavenge']), []);
    assert.deepEqual(runtimeFlags(2, ['--no-parallel-scavenge']), []);
    assert.deepEqual(runtimeFlags(2, ['--single-threaded-gc']), []);
  });

  it('tuneRuntime hands each flag to V8 and says which it set', () => {
    const set: string[] = [];
    assert.deepEqual(
      tuneRuntime(2, [], (flag) => set.push(flag)),
      ['--no-parallel-scavenge'],
    );
    assert.deepEqual(set, ['--no-parallel-scavenge']);
    set.length = 0;
    assert.deepEqual(
      tuneRuntime(8, [], (flag) => set.push(flag)),
      [],
    );
    assert.deepEqual(set, []);
  });
});
