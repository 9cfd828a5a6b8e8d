import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  containsPhrase,
  normaliseKey,
  normaliseTokens,
  PhraseIndex,
  phraseTokens,
} from '../../../src/modules/text/index.ts';

/** An interest's phrase, as callers build it: its key's words. */
function phrase(keyword: string): string[] {
  const key = normaliseKey(keyword);
  assert.ok(key, `${keyword} has a key`);
  return key.split(' ');
}

const mentions = (text: string, keyword: string) => containsPhrase(phraseTokens(text), phrase(keyword));

describe('phrase tokens', () => {
  test('words are split at punctuation, lower-cased and accent-folded as keys are', () => {
    assert.deepEqual(phraseTokens('West, Texas'), ['west', 'texas']);
    assert.deepEqual(phraseTokens('Metro-North'), ['metro', 'north']);
    assert.deepEqual(phraseTokens('U.S. Open!'), ['us', 'open']);
    assert.deepEqual(phraseTokens('Lac-Mégantic'), ['lac', 'megantic']);
  });

  test('a hashtag is split into its camel-case words after a marker of them glued', () => {
    assert.deepEqual(phraseTokens('#WestTexas'), ['#westtexas', 'west', 'texas']);
    assert.deepEqual(phraseTokens('#COfire'), ['#cofire', 'co', 'fire']);
    assert.deepEqual(phraseTokens('#RescuePH'), ['#rescueph', 'rescue', 'ph']);
    assert.deepEqual(phraseTokens('#AIArt #IStand'), ['#aiart', 'ai', 'art', '#istand', 'i', 'stand']);
    assert.deepEqual(phraseTokens('#2024Election #3DPrinting'), [
      '#2024election',
      '2024',
      'election',
      '#3dprinting',
      '3d',
      'printing',
    ]);
  });

  test('a one-word hashtag is its word alone; a URL fragment and a # inside a word are no hashtags', () => {
    assert.deepEqual(phraseTokens('#westtexas #NY'), ['westtexa', 'ny']);
    assert.deepEqual(phraseTokens('see https://x.com/a#TopStory in C#'), ['see', 'in', 'c']);
  });

  test('an empty text has no tokens', () => {
    assert.deepEqual(phraseTokens(''), []);
    assert.deepEqual(phraseTokens('  \n '), []);
  });

  test('a text without hashtags has the tokens normaliseTokens gives it', () => {
    const pieces = [
      'West',
      'texas',
      'U.S.',
      'Mégantic',
      'e\u0301t\u00e9',
      "'s",
      '-',
      ',',
      ' ',
      '\n',
      'ß',
      '´',
      'x.com/a',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        assert.deepEqual(phraseTokens(text), normaliseTokens(text));
      }),
    );
  });
});

describe('containsPhrase', () => {
  test('"west texas" matches every spelling of its two words, hashtags and any case', () => {
    for (const text of [
      'West, Texas',
      'West Texas',
      '#WestTexas',
      '#westtexas',
      'WEST TEXAS!',
      '#West_Texas',
    ]) {
      assert.ok(mentions(`Flooding in ${text} tonight`, 'west texas'), text);
    }
  });

  test('"west texas" does not match its words apart or in another order', () => {
    assert.equal(mentions('West of Texas', 'west texas'), false);
    assert.equal(mentions('Texas West', 'west texas'), false);
    assert.equal(mentions('#TexasWest', 'west texas'), false);
  });

  test('whole words only: "ny" matches "NY" and "#NY", not "Sunny" nor "#SunnyDay"', () => {
    assert.equal(mentions('Sunny again', 'ny'), false);
    assert.equal(mentions('#SunnyDay', 'ny'), false);
    assert.ok(mentions('Snow in NY', 'ny'));
    assert.ok(mentions('Snow #NY', 'ny'));
    assert.equal(mentions('Texasville fair', 'texas'), false);
  });

  test('accents are folded on both sides', () => {
    assert.ok(mentions('Lac-Mégantic', 'lac megantic'));
    assert.ok(mentions('lac megantic derailment', 'Lac-Mégantic'));
    assert.ok(mentions('#LacMégantic', 'lac megantic'));
  });

  test('a one-word phrase matches the word, or the words of one hashtag glued', () => {
    assert.ok(mentions('Fire near Boulder', 'fire'));
    assert.ok(mentions('#COfire update', 'fire'));
    assert.ok(mentions('#RescuePH', '#RescuePH'));
    assert.ok(mentions('#RescuePHNow volunteers', '#rescueph'));
    assert.ok(mentions('#WestTexas', '#westtexas'));
    assert.equal(mentions('Fireworks tonight', 'fire'), false);
  });

  test('words outside a hashtag are not glued into a one-word phrase', () => {
    assert.equal(mentions('West Texas', '#westtexas'), false);
    assert.equal(mentions('the rapist was caught', 'therapist'), false);
  });

  test('a phrase glued matches one word written glued', () => {
    assert.ok(mentions('Westtexas weather', 'west texas'));
    assert.ok(mentions('#worldseries game 7', 'world series'));
    assert.ok(mentions('#LeBronJames', 'lebron james'));
  });

  test('plurals fold only as keys fold them', () => {
    assert.ok(mentions('Floods in Spain', 'flood'));
    assert.ok(mentions('Tech companies', 'tech company'));
    assert.equal(mentions('Texas', 'texa'), false);
  });

  test('empty tokens or an empty phrase match nothing', () => {
    assert.equal(containsPhrase([], ['west']), false);
    assert.equal(containsPhrase(phraseTokens(''), phrase('west texas')), false);
    assert.equal(containsPhrase(['west'], []), false);
  });
});

describe('PhraseIndex', () => {
  test('returns every key a post mentions, once each, in the order the index was given them', () => {
    const keys = ['west texas', 'fire', 'co fire', 'rescueph', 'ny', 'lac megantic', 'texas', 'westtexa'];
    const index = new PhraseIndex([...keys, 'fire']);
    assert.deepEqual(index.keys, keys);
    const post = 'Evacuations in #WestTexas and #COfire, fire crews from NY help. #RescuePH';
    assert.deepEqual(index.matches(phraseTokens(post)), [
      'west texas',
      'fire',
      'co fire',
      'rescueph',
      'ny',
      'texas',
      'westtexa',
    ]);
  });

  test('agrees with containsPhrase key by key', () => {
    const keywords = [
      'west texas',
      'ny',
      'sunny',
      '#westtexas',
      'lac megantic',
      'texas',
      'storm',
      'fire',
      'co',
    ];
    const index = new PhraseIndex(keywords.map((k) => phrase(k).join(' ')));
    const posts = [
      'Sunny day in West, Texas #SunnyDay #StormWatch',
      '#westtexas fire',
      '#COfire near NY',
      'Lac-Mégantic #LacMegantic',
      'West of Texas',
      '',
    ];
    for (const post of posts) {
      const tokens = phraseTokens(post);
      const expected = index.keys.filter((key) => containsPhrase(tokens, key.split(' ')));
      assert.deepEqual(index.matches(tokens), expected, post);
    }
  });

  test('an empty index or an empty post matches nothing', () => {
    assert.deepEqual(new PhraseIndex([]).matches(phraseTokens('West Texas')), []);
    assert.deepEqual(new PhraseIndex(['west texas']).matches(phraseTokens('')), []);
  });
});
