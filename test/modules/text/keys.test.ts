import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { containedNames, surfaceOfName } from '../../../src/modules/text/keys.ts';

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
