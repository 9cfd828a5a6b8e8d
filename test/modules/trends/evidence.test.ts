import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signalFingerprint } from '../../../src/modules/text/fingerprint.ts';
import { EvidenceTracker, UnitSet } from '../../../src/modules/trends/evidence.ts';

describe('evidence weighting', () => {
  test('an account or a text counts once per trend and hour; other trends and hours are apart', () => {
    const tracker = new EvidenceTracker();
    const batch = tracker.batch();
    const fp = (text: string) => signalFingerprint(text);
    assert.equal(tracker.admit(batch, 'kestrel', 10, 'ann', fp('one')), true);
    assert.equal(tracker.admit(batch, 'kestrel', 10, 'ann', fp('two')), false, 'same account');
    assert.equal(tracker.admit(batch, 'kestrel', 10, 'bob', fp('one')), false, 'same text');
    assert.equal(tracker.admit(batch, 'kestrel', 10, 'bob', fp('three')), true);
    assert.equal(tracker.admit(batch, 'harbour', 10, 'ann', fp('one')), true, 'another trend');
    assert.equal(tracker.admit(batch, 'kestrel', 11, 'ann', fp('one')), true, 'another hour');
    assert.equal(tracker.admit(batch, 'kestrel', 10, null, fp('one')), true, 'no author: counts in full');
  });

  test('a committed batch is remembered by the next; an uncommitted one is not', () => {
    const tracker = new EvidenceTracker();
    const first = tracker.batch();
    assert.equal(tracker.admit(first, 'kestrel', 10, 'ann', 1), true);
    // Not committed (rolled back or rebuilt): a new batch judges afresh.
    assert.equal(tracker.admit(tracker.batch(), 'kestrel', 10, 'ann', 1), true);
    tracker.commit(first);
    assert.equal(tracker.admit(tracker.batch(), 'kestrel', 10, 'ann', 2), false);
    // Hours older than the newest and the two before it are forgotten: their mentions count in full.
    const later = tracker.batch();
    tracker.admit(later, 'other', 13, 'zed', 3);
    tracker.commit(later);
    assert.equal(tracker.admit(tracker.batch(), 'kestrel', 10, 'ann', 2), true);
  });
});

describe('UnitSet (an hour of evidence units)', () => {
  test('holds what was added, once, however many units and whatever their bits (0 and 2^32 − 1 too)', () => {
    const set = new UnitSet();
    const added = new Set<number>();
    let x = 0x12345678;
    for (let i = 0; i < 20_000; i++) {
      x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) >>> 0;
      // Many units alike in their low bits, as FNV hashes of similar texts can be.
      const unit = i % 3 === 0 ? (i << 12) >>> 0 : x;
      set.add(unit);
      added.add(unit);
    }
    for (const unit of [0, 0xffffffff, 1]) {
      assert.equal(set.has(unit), added.has(unit));
      set.add(unit);
      set.add(unit);
      added.add(unit);
    }
    assert.equal(set.size, added.size);
    for (const unit of added) assert.ok(set.has(unit), `${unit}`);
    let absent = 0;
    for (let i = 0; i < 5_000; i++) if (!added.has(i * 7919 + 3) && set.has(i * 7919 + 3)) absent++;
    assert.equal(absent, 0, 'no unit it was not given');
  });
});
