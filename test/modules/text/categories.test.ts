import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { categorise } from '../../../src/modules/text/categories.ts';
import { normaliseKey } from '../../../src/modules/text/index.ts';
import { lexiconTermKeys, lexiconTerms, UNUSABLE_LEXICON_TERMS } from '../../../src/modules/text/lexicon.ts';
import {
  CATEGORIES,
  categoryByNameOrSlug,
  descendantsOf,
  FALLBACK_CATEGORY,
} from '../../../src/modules/text/taxonomy.ts';
import { sampleTextHits } from '../../../src/modules/text/text-hits.ts';

const NAMES = new Set(CATEGORIES.map((c) => c.name));

function key(surface: string): string {
  const k = normaliseKey(surface);
  assert.ok(k !== null, surface);
  return k;
}

describe('taxonomy', () => {
  test('has at least 12 top-level categories, General among them', () => {
    const top = CATEGORIES.filter((c) => c.parent === null).map((c) => c.name);
    assert.ok(top.length >= 12, `${top.length} top-level categories`);
    for (const name of ['Technology', 'Sports', 'Crisis & Safety', 'General'])
      assert.ok(top.includes(name), name);
  });

  test('every top-level category has children and every child names an existing parent in its path', () => {
    for (const category of CATEGORIES) {
      if (category.parent === null) {
        assert.equal(category.name.includes('/'), false, category.name);
        assert.ok(
          CATEGORIES.some((c) => c.parent === category.name),
          `${category.name} has no children`,
        );
      } else {
        assert.ok(NAMES.has(category.parent), category.name);
        assert.ok(category.name.startsWith(`${category.parent}/`), category.name);
        assert.equal(category.name.split('/').length, 2, category.name);
      }
    }
  });

  test('names and slugs are unique, slugs are URL-safe and stable', () => {
    assert.equal(NAMES.size, CATEGORIES.length);
    const slugs = new Set(CATEGORIES.map((c) => c.slug));
    assert.equal(slugs.size, CATEGORIES.length);
    for (const c of CATEGORIES) {
      assert.match(c.slug, /^[a-z0-9]+(?:-[a-z0-9]+)*$/, c.slug);
      assert.ok(c.description.length > 0, c.name);
    }
    assert.equal(categoryByNameOrSlug('Technology/AI')?.slug, 'technology-ai');
    assert.equal(categoryByNameOrSlug('Sports/Football')?.slug, 'sports-football');
    assert.equal(categoryByNameOrSlug('Business & Finance')?.slug, 'business-finance');
    assert.equal(categoryByNameOrSlug('General/Other')?.slug, 'general-other');
  });

  test('General/Other and General/Culture exist (the fallback is a real entry)', () => {
    assert.equal(FALLBACK_CATEGORY, 'General/Other');
    assert.ok(NAMES.has('General/Other'));
    assert.ok(NAMES.has('General/Culture'));
  });

  test('the data cannot be changed by a caller', () => {
    assert.ok(Object.isFrozen(CATEGORIES));
    assert.ok(Object.isFrozen(CATEGORIES[0]));
  });

  test('every lexicon term survives normalisation', () => {
    assert.deepEqual(UNUSABLE_LEXICON_TERMS, []);
  });
});

describe('categoryByNameOrSlug', () => {
  test('accepts the path or the slug, case-insensitively', () => {
    for (const value of [
      'Technology/AI',
      'technology/ai',
      'TECHNOLOGY / AI',
      'technology-ai',
      ' Technology-AI ',
    ]) {
      assert.equal(categoryByNameOrSlug(value)?.name, 'Technology/AI', value);
    }
    assert.equal(categoryByNameOrSlug('crisis-safety')?.name, 'Crisis & Safety');
    assert.equal(categoryByNameOrSlug('crisis & safety')?.name, 'Crisis & Safety');
  });

  test('unknown values give null', () => {
    for (const value of ['', '  ', 'AI', 'Technology/Nope', 'nope', '/', 'technology-']) {
      assert.equal(categoryByNameOrSlug(value), null, value);
    }
  });
});

describe('descendantsOf', () => {
  test('a parent matches itself and its children', () => {
    const sports = descendantsOf('Sports');
    assert.equal(sports[0], 'Sports');
    assert.ok(sports.includes('Sports/Football'));
    assert.ok(sports.includes('Sports/Tennis'));
    assert.ok(sports.every((name) => name === 'Sports' || name.startsWith('Sports/')));
    assert.deepEqual(descendantsOf('sports'), sports);
  });

  test('a child matches only itself, by name or slug', () => {
    assert.deepEqual(descendantsOf('Technology/AI'), ['Technology/AI']);
    assert.deepEqual(descendantsOf('technology-ai'), ['Technology/AI']);
  });

  test('an unknown category matches nothing', () => {
    assert.deepEqual(descendantsOf('Nope'), []);
  });
});

describe('categorise', () => {
  test('openai, llm and chatgpt go under Technology/AI', () => {
    for (const surface of ['OpenAI', 'LLMs', 'ChatGPT', 'machine learning', 'GPT-5']) {
      assert.equal(categorise({ key: key(surface), surfaceForms: [surface] }), 'Technology/AI', surface);
    }
  });

  test('premier league and arsenal go under Sports/Football', () => {
    assert.equal(categorise({ key: key('Premier League') }), 'Sports/Football');
    assert.equal(
      categorise({ key: key('Arsenal'), surfaceForms: ['Arsenal', '#Arsenal'] }),
      'Sports/Football',
    );
  });

  test('earthquake goes under Crisis & Safety/Natural Disasters', () => {
    assert.equal(categorise({ key: key('earthquakes') }), 'Crisis & Safety/Natural Disasters');
    assert.equal(categorise({ key: key('tsunami warning') }), 'Crisis & Safety/Natural Disasters');
  });

  test('other clear cases land where expected', () => {
    const cases: [string, string][] = [
      ['bitcoin', 'Business & Finance/Crypto'],
      ['Federal Reserve', 'Business & Finance/Economy'],
      ['Taylor Swift', 'Entertainment/Music'],
      ['Super Bowl', 'Sports/American Football'],
      ['climate change', 'Environment & Climate/Climate Change'],
      ['hurricane', 'Crisis & Safety/Severe Weather & Flooding'],
      ['ransomware', 'Technology/Cybersecurity'],
      ['COVID-19', 'Health/Public Health & Disease'],
      ['Tesla', 'Automotive/Electric Vehicles'],
      ['PS5', 'Gaming/Consoles'],
      ['NASA', 'Science/Space'],
    ];
    for (const [surface, expected] of cases)
      assert.equal(categorise({ key: key(surface) }), expected, surface);
  });

  test('signal texts decide for a key the lexicons do not know', () => {
    assert.equal(
      categorise({
        key: key('Bukayo Saka'),
        texts: ['Bukayo Saka scores twice as Arsenal go top of the Premier League', 'What a goal'],
      }),
      'Sports/Football',
    );
    assert.equal(
      categorise({
        key: key('Tokyo'),
        texts: ['A magnitude 6.2 earthquake struck near Tokyo, no tsunami warning'],
      }),
      'Crisis & Safety/Natural Disasters',
    );
  });

  test('a text read again (for another trend, or after thousands of others) weighs exactly as the first time', () => {
    const football = 'Bukayo Saka scores twice as Arsenal go top of the Premier League';
    const quake = 'A magnitude 6.2 earthquake struck near Tokyo, no tsunami warning';
    const first = categorise({ key: key('Bukayo Saka'), texts: [football, 'What a goal'] });
    // Other keys over the same texts: each key's own evidence still counts, the texts' as before.
    assert.equal(categorise({ key: key('bitcoin'), texts: [football] }), 'Business & Finance/Crypto');
    assert.equal(categorise({ key: key('Tokyo'), texts: [quake] }), 'Crisis & Safety/Natural Disasters');
    // More distinct texts than are remembered, then the first texts again.
    for (let i = 0; i < 5000; i++)
      categorise({ key: key(`Quenby ${i}`), texts: [`plain words ${i} and more`] });
    assert.equal(categorise({ key: key('Bukayo Saka'), texts: [football, 'What a goal'] }), first);
    assert.equal(
      categorise({ key: key('Tokyo'), texts: [quake, quake] }),
      'Crisis & Safety/Natural Disasters',
    );
  });

  test("a team's numbered games are not video games", () => {
    assert.notEqual(
      categorise({
        key: key('Harbor City Hawks'),
        texts: [
          'Harbor City Hawks guard scored 41 points in game four of the playoffs.',
          'The Harbor City Hawks host game five at home on Thursday night.',
        ],
      }).split('/')[0],
      'Gaming',
    );
  });

  test('a single weak text hit is not enough', () => {
    assert.equal(
      categorise({ key: key('Zorblax'), texts: ['zorblax was at the stadium'] }),
      FALLBACK_CATEGORY,
    );
  });

  test('a category hint wins when it resolves to the taxonomy', () => {
    assert.equal(categorise({ key: 'openai', hints: { category: 'Sports/Football' } }), 'Sports/Football');
    assert.equal(categorise({ key: 'openai', hints: { category: 'sports-football' } }), 'Sports/Football');
    assert.equal(categorise({ key: 'zorblax', hints: { category: 'health' } }), 'Health');
    // A hint that does not resolve is ignored.
    assert.equal(categorise({ key: 'openai', hints: { category: 'not a category' } }), 'Technology/AI');
  });

  test('a top-level hint is refined to its best child', () => {
    assert.equal(categorise({ key: 'chatgpt', hints: { category: 'Technology' } }), 'Technology/AI');
    assert.equal(categorise({ key: 'earthquake', hints: { category: 'technology' } }), 'Technology');
  });

  test('subreddit and tag hints resolve too, after an explicit category', () => {
    assert.equal(categorise({ key: 'zorblax', hints: { subreddit: 'r/soccer' } }), 'Sports/Football');
    assert.equal(categorise({ key: 'zorblax', hints: { subreddit: 'MachineLearning' } }), 'Technology/AI');
    assert.equal(
      categorise({ key: 'zorblax', hints: { subreddit: ['nba', 'nba', 'soccer'] } }),
      'Sports/Basketball',
    );
    assert.equal(
      categorise({ key: 'zorblax', hints: { tags: ['unknown', 'Bitcoin'] } }),
      'Business & Finance/Crypto',
    );
    assert.equal(
      categorise({ key: 'zorblax', hints: { category: 'Travel', subreddit: 'soccer', tags: ['ai'] } }),
      'Travel',
    );
  });

  test("hints named like an object's own members are unknown hints, not table entries", () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype']) {
      for (const hint of [name, `r/${name}`]) {
        assert.equal(categorise({ key: 'zorblax', hints: { category: hint } }), 'General/Other', hint);
        assert.equal(categorise({ key: 'zorblax', hints: { subreddit: hint } }), 'General/Other', hint);
        assert.equal(categorise({ key: 'zorblax', hints: { tags: [hint] } }), 'General/Other', hint);
      }
    }
    // Beside a real hint, it is one that does not resolve.
    assert.equal(
      categorise({ key: 'zorblax', hints: { subreddit: ['__proto__', 'constructor', 'soccer'] } }),
      'Sports/Football',
    );
    assert.equal(categorise({ key: 'zorblax', hints: { category: ['constructor', 'tech'] } }), 'Technology');
  });

  test('an unknown trend goes to General/Other', () => {
    assert.equal(categorise({ key: 'zorblax' }), 'General/Other');
    assert.equal(categorise({ key: '', surfaceForms: [], texts: [] }), 'General/Other');
    assert.equal(categorise({ key: 'zorblax', hints: {} }), 'General/Other');
    assert.equal(
      categorise({ key: 'zorblax', hints: { category: null, subreddit: [], tags: null } }),
      'General/Other',
    );
  });

  test('is deterministic and always answers with a taxonomy name', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 3 }),
        fc.array(fc.string({ maxLength: 200 }), { maxLength: 3 }),
        fc.option(
          fc.record({
            category: fc.string({ maxLength: 20 }),
            tags: fc.array(fc.string(), { maxLength: 2 }),
          }),
        ),
        (k, surfaceForms, texts, hints) => {
          const input = { key: k, surfaceForms, texts, hints };
          const first = categorise(input);
          assert.ok(NAMES.has(first), first);
          assert.equal(categorise(input), first);
        },
      ),
      { numRuns: 300, seed: 20_261_121 },
    );
  });

  test('order of surface forms and texts does not change the answer', () => {
    const texts = ['New iPhone leaks', 'Premier League weekend preview', 'Arsenal transfer rumours'];
    const forward = categorise({ key: 'zorblax', texts });
    const backward = categorise({ key: 'zorblax', texts: [...texts].reverse() });
    assert.equal(forward, backward);
    assert.equal(forward, 'Sports/Football');
  });
});

test('categorisation reads the lexicon hits it is given for a text instead of reading the text again', () => {
  const disaster = 'Earthquake and tsunami: evacuation ordered, flood waters rising';
  const plain = 'nothing in particular here';
  const alone = categorise({ key: 'zq item', texts: [plain] });
  const given = categorise({
    key: 'zq item',
    texts: [plain],
    knownHits: new Map([[plain, sampleTextHits(disaster)]]),
  });
  assert.equal(given, categorise({ key: 'zq item', texts: [disaster] }));
  assert.notEqual(given, alone);
});

describe('lexicon terms of a text', () => {
  test('are exactly the n-grams that are lexicon terms, in text order, however the words run', () => {
    const terms = lexiconTermKeys();
    const known = new Set(terms);
    const longest = Math.max(...terms.map((t) => t.split(' ').length));
    assert.ok(longest >= 3, 'the lexicon has terms of three words or more');
    // Words of multi-word terms (so prefixes, overlaps and near-misses occur), single-word terms, fillers.
    const words = [
      ...new Set(
        terms
          .filter((t) => t.includes(' '))
          .slice(0, 60)
          .flatMap((t) => t.split(' ')),
      ),
      ...terms.filter((t) => !t.includes(' ')).slice(0, 20),
      'the',
      'quake',
      'zzyzx',
      'of',
    ];
    const reference = (tokens: string[]) => {
      const out: string[] = [];
      for (let i = 0; i < tokens.length; i++)
        for (let n = 1; n <= longest && i + n <= tokens.length; n++) {
          const gram = tokens.slice(i, i + n).join(' ');
          if (known.has(gram)) out.push(gram);
        }
      return out;
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 25 }), (tokens) => {
        assert.deepEqual(lexiconTerms(tokens), reference(tokens));
      }),
      { numRuns: 2000, seed: 20_261_204 },
    );
    // Whole terms, back to back: each is found, and so are the terms inside them.
    const multi = terms.filter((t) => t.split(' ').length >= 3).slice(0, 30);
    const tokens = multi.flatMap((t) => t.split(' '));
    const found = lexiconTerms(tokens);
    for (const term of multi) assert.ok(found.includes(term), term);
    assert.deepEqual(found, reference(tokens));
  });
});
