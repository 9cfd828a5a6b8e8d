import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  EvidenceTracker,
  signalFingerprint,
  textFingerprint,
  UnitSet,
} from '../../../src/modules/trends/evidence.ts';
import { containedNames, surfaceOfName } from '../../../src/modules/trends/keys.ts';

describe('evidence weighting', () => {
  test('copies that differ in links, handles, counters, case and punctuation have one fingerprint', () => {
    const a = textFingerprint('RT @amy: Quillmont GIVEAWAY, click now!! https://spam.example/1');
    const b = textFingerprint('@bob quillmont giveaway click now #2 https://spam.example/2');
    assert.equal(a, 'quillmont giveaway click now');
    assert.equal(b, a);
    assert.notEqual(signalFingerprint('Quillmont giveaway'), signalFingerprint('Quillmont opens a store'));
  });

  test("an ASCII text's fingerprint hash is the hash of its fingerprint text, whatever its links, handles and RTs", () => {
    // FNV-1a of textFingerprint: what signalFingerprint gives every text; ASCII ones take a one-pass path.
    const fnv = (text: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
      return h >>> 0;
    };
    for (const [text, title] of [
      ['RT @amy: Quillmont GIVEAWAY, click now!! https://spam.example/1', null],
      ['rt:Breaking www.example.com/a?b news @x@y me@example.com', 'Title: RT'],
      ['  RT_1 rtx Rt http://a.b/c-d@e WWW. www.x', null],
      ['Café fire in Zürich @zoë https://t.co/x', 'Non-ASCII takes the patterns'],
    ] as const) {
      assert.equal(
        signalFingerprint(text, title),
        fnv(textFingerprint(title ? `${title} ${text}` : text)),
        text,
      );
    }
    const pieces = [
      'rt',
      'RT',
      ':',
      ' ',
      '\t',
      '@',
      '@a',
      '_',
      'abc',
      'Www.',
      'www.',
      'http://',
      'HTTPS://',
      'a.b',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces, '-', '+', '1', '://', '.', 'r', 't', '#'), { maxLength: 14 }),
        (parts) => {
          const text = parts.join('');
          assert.equal(signalFingerprint(text), fnv(textFingerprint(text)), JSON.stringify(text));
        },
      ),
      { numRuns: 5000, seed: 20_261_201 },
    );
  });

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

describe('names inside longer keys', () => {
  test('spans of two words or more, longest first, then the one ending last; label words stripped', () => {
    assert.deepEqual(containedNames('max alaska airline'), ['alaska airline', 'max alaska']);
    assert.deepEqual(containedNames('boeing max alaska airline').slice(0, 3), [
      'max alaska airline',
      'boeing max alaska',
      'alaska airline',
    ]);
    assert.deepEqual(containedNames('breaking boeing'), ['boeing']);
    // Single words are not names inside a longer key, and `new` begins names.
    assert.deepEqual(containedNames('alaska airline'), []);
    assert.deepEqual(containedNames('new york'), []);
  });

  test('the words of a phrase that spell a name it contains, as written', () => {
    assert.equal(surfaceOfName('data center servers', 'data center'), 'data center');
    assert.equal(surfaceOfName('Boeing MAX Alaska Airlines', 'alaska airline'), 'Alaska Airlines');
    assert.equal(surfaceOfName('#Bitcoin mining difficulty', 'bitcoin mining'), '#Bitcoin mining');
    assert.equal(surfaceOfName('data center servers', 'cloud'), null);
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
