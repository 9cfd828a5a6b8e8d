// VelocityLevels: the trends module's port for the levels whose crossing is a velocity event. Fixed defaults;
// other modules add theirs (webhooks: its subscriptions' thresholds) without trends knowing them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_VELOCITY_LEVELS, VelocityLevels } from '../../../src/modules/trends/levels.ts';
import { eventsFor } from '../../../src/modules/trends/recompute.ts';

describe('VelocityLevels', () => {
  test('without a source: the fixed defaults, ascending', async () => {
    assert.deepEqual(DEFAULT_VELOCITY_LEVELS, [25, 50, 75, 90]);
    assert.deepEqual(await new VelocityLevels().current(), [25, 50, 75, 90]);
  });

  test("every source's levels join the defaults, once each, ascending; sources may be sync or async", async () => {
    const levels = new VelocityLevels();
    levels.watch(() => [33, 50]);
    levels.watch(async () => [95, 33, 10]);
    assert.deepEqual(await levels.current(), [10, 25, 33, 50, 75, 90, 95]);
  });

  test('a source is read on every call, so its changes are seen', async () => {
    let thresholds = [40];
    const levels = new VelocityLevels([50]);
    levels.watch(() => thresholds);
    assert.deepEqual(await levels.current(), [40, 50]);
    thresholds = [60];
    assert.deepEqual(await levels.current(), [50, 60]);
  });

  test("a failing source is the caller's failure (the recompute batch retries), not silently the defaults", async () => {
    const levels = new VelocityLevels();
    levels.watch(async () => {
      throw new Error('database away');
    });
    await assert.rejects(levels.current(), /database away/);
  });

  test('the levels drive the events: a crossing of a watched level is one event naming it', async () => {
    const levels = new VelocityLevels();
    levels.watch(() => [33]);
    const view = {
      id: 1,
      title: 'Zorblax',
      category: 'Technology',
      velocity_score: 40,
      volume: 30,
      lifecycle_stage: 'stable',
    } as Parameters<typeof eventsFor>[1];
    const [event] = eventsFor(
      { velocity_score: 20, lifecycle_stage: 'stable' },
      view,
      await levels.current(),
      0,
    );
    assert.ok(event?.type === 'trend.velocity.crossed', 'a velocity event');
    assert.deepEqual(event.data.levels, [25, 33]);
  });
});
