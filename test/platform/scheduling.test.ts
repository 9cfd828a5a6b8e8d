import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TimeSlicer, yieldToEventLoop } from '../../src/platform/scheduling.ts';

test('yieldToEventLoop lets timers and I/O callbacks already due run before it resolves', async () => {
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  await Promise.resolve();
  assert.equal(ran, false, 'a resolved promise alone does not give the loop a turn');
  await yieldToEventLoop();
  assert.equal(ran, true);
});

test('TimeSlicer yields only once its budget is spent', async () => {
  const slicer = new TimeSlicer(1_000_000);
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  await slicer.maybeYield();
  assert.equal(ran, false, 'within budget: no yield');

  const eager = new TimeSlicer(0);
  await eager.maybeYield();
  assert.equal(ran, true, 'budget spent: the loop got a turn');
});
