import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  DEFAULT_MAX_CANDIDATES,
  extractCandidates,
  type TrendCandidate,
  titleFrom,
  warmUp,
} from '../../../src/modules/text/extraction.ts';
import { normaliseKey, normaliseTokens } from '../../../src/modules/text/index.ts';

function byKey(candidates: TrendCandidate[]): Map<string, TrendCandidate> {
  return new Map(candidates.map((c) => [c.key, c]));
}

describe('normaliseKey', () => {
  test('#OpenAI, OpenAI, openai and full-width ＯｐｅｎＡＩ share one key', () => {
    for (const surface of ['#OpenAI', 'OpenAI', 'openai', 'OPENAI', '@OpenAI', 'ＯｐｅｎＡＩ', ' OpenAI! ']) {
      assert.equal(normaliseKey(surface), 'openai', surface);
    }
  });

  test('a space typed inside a name keeps it apart (Open AI is not openai)', () => {
    assert.equal(normaliseKey('Open AI'), 'open ai');
  });

  test('#MachineLearning, machine learning and #machine_learning share one key', () => {
    for (const surface of [
      '#MachineLearning',
      'machine learning',
      'Machine  Learning',
      '#machine_learning',
    ]) {
      assert.equal(normaliseKey(surface), 'machine learning', surface);
    }
    assert.equal(normaliseKey('#ClimateChange'), normaliseKey('climate change'));
    assert.equal(normaliseKey('#GameOfThrones'), normaliseKey('Game of Thrones'));
  });

  test('acronym tails, short prefixes and camel-cased brands are not split', () => {
    assert.equal(normaliseKey('ChatGPT'), 'chatgpt');
    assert.equal(normaliseKey('iPhone'), 'iphone');
    assert.equal(normaliseKey('LeBron'), 'lebron');
    assert.equal(normaliseKey('McDonald'), 'mcdonald');
    assert.equal(normaliseKey('#YouTube'), normaliseKey('youtube'));
    assert.equal(normaliseKey('TikTok'), 'tiktok');
    assert.equal(normaliseKey('AIArt'), 'ai art');
    assert.equal(normaliseKey('JPMorgan'), normaliseKey('JP Morgan'));
  });

  test('hyphens and glued numbers give the same key (GPT-5 = #GPT5 = gpt 5)', () => {
    assert.equal(normaliseKey('GPT-5'), 'gpt 5');
    assert.equal(normaliseKey('#GPT5'), 'gpt 5');
    assert.equal(normaliseKey('COVID-19'), normaliseKey('covid19'));
    assert.equal(normaliseKey('iPhone17'), normaliseKey('iPhone 17'));
    assert.equal(normaliseKey('H5N1'), 'h5n1');
  });

  test('punctuation is trimmed, possessives and dotted acronyms close up, & survives inside a name', () => {
    assert.equal(normaliseKey('"Apple\'s"'), 'apple');
    assert.equal(normaliseKey('McDonald’s'), normaliseKey('McDonalds'));
    assert.equal(normaliseKey('U.S.'), 'us');
    assert.equal(normaliseKey('AT&T'), 'at&t');
    assert.equal(normaliseKey('...premier   league!!!'), 'premier league');
  });

  test('simple plurals fold per word', () => {
    const cases: [string, string][] = [
      ['llms', 'llm'],
      ['LLMs', 'llm'],
      ['companies', 'company'],
      ['earthquakes', 'earthquake'],
      ['crashes', 'crash'],
      ['taxes', 'tax'],
      ['electric vehicles', 'electric vehicle'],
      ['interest rates', 'interest rate'],
      ['NFTs', 'nft'],
      ['EVs', 'ev'],
      ['GPUs', 'gpu'],
      ['movies', 'movie'],
      ['heroes', 'hero'],
      ['crises', 'crisis'],
      ['viruses', 'virus'],
      ['wolves', 'wolf'],
    ];
    for (const [plural, singular] of cases) assert.equal(normaliseKey(plural), singular, plural);
  });

  test('words that only look plural are kept', () => {
    for (const word of [
      'news',
      'gas',
      'bus',
      'analysis',
      'ios',
      'us',
      'series',
      'species',
      'physics',
      'status',
    ]) {
      assert.equal(normaliseKey(word), word, word);
    }
    for (const name of ['hamas', 'texas', 'wales', 'windows', 'mercedes', 'diabetes', 'class']) {
      assert.equal(normaliseKey(name), name, name);
    }
  });

  test('stop-words, stop-phrases, noise, numbers, single characters and URLs are dropped', () => {
    const dropped = [
      '',
      '   ',
      'the',
      'The',
      'of the',
      'and then',
      'RT',
      'lol',
      'via',
      '&amp;',
      'http',
      '#lol',
      'link in bio',
      'Breaking News',
      '2024',
      '6.2',
      '1,000',
      'x',
      '#',
      'é',
      'https://t.co/abc',
      'http://example.com/a?b=c',
      'www.example.com',
      'bit.ly/3xyz',
      'someone@example.com',
      '🚀',
      'a'.repeat(501),
    ];
    for (const surface of dropped) assert.equal(normaliseKey(surface), null, JSON.stringify(surface));
    // A stop-word inside a name is fine.
    assert.equal(normaliseKey('The Beatles'), 'the beatle');
    assert.equal(normaliseKey('Bank of England'), 'bank of england');
  });

  test('Unicode is NFKC-normalised and case-folded', () => {
    assert.equal(normaliseKey('Straße'), normaliseKey('STRASSE'));
    assert.equal(normaliseKey('İstanbul'), normaliseKey('istanbul'));
    assert.equal(normaliseKey('Café'), normaliseKey('Cafe\u0301'));
    assert.equal(normaliseKey('東京'), '東京');
  });

  test('is idempotent on arbitrary unicode strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (s) => {
        const once = normaliseKey(s);
        if (once !== null) assert.equal(normaliseKey(once), once);
      }),
      { numRuns: 3000, seed: 20_261_121 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        const once = normaliseKey(s);
        if (once !== null) assert.equal(normaliseKey(once), once);
      }),
      { numRuns: 3000, seed: 20_261_122 },
    );
  });

  test('is idempotent on word-like strings (camel case, plurals, digits, punctuation)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'Open',
        'AI',
        'Machine',
        'Learning',
        'iPhone',
        'GPT',
        'llms',
        'companies',
        'news',
        'the',
      ),
      fc.constantFrom(
        'crashes',
        'buses',
        'heroes',
        'Straße',
        'İ',
        'U.S.',
        "'s",
        '#',
        '@',
        '-',
        '_',
        '.',
        '&',
      ),
      fc.stringMatching(/^[A-Za-z]{1,8}$/),
      fc.stringMatching(/^[0-9]{1,4}$/),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.constantFrom('', ' '), (pieces, glue) => {
        const once = normaliseKey(pieces.join(glue));
        if (once !== null) assert.equal(normaliseKey(once), once);
      }),
      { numRuns: 5000, seed: 20_261_123 },
    );
  });

  test('never throws, on any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), (s) => {
        const key = normaliseKey(s);
        assert.ok(key === null || (typeof key === 'string' && key.length > 0 && key.length <= 100));
      }),
      { numRuns: 2000, seed: 20_261_124 },
    );
    // Not a string at all (untyped callers).
    assert.equal(normaliseKey(undefined as unknown as string), null);
    assert.equal(normaliseKey(42 as unknown as string), null);
  });

  test('n-grams of normaliseTokens compare equal to normaliseKey', () => {
    const tokens = normaliseTokens('Loving the #MachineLearning LLMs at https://t.co/x — GPT-5 rocks');
    assert.deepEqual(tokens, ['loving', 'the', 'machine', 'learning', 'llm', 'at', 'gpt', '5', 'rock']);
    assert.equal(tokens.slice(2, 4).join(' '), normaliseKey('machine learning'));
  });
});

describe('extractCandidates', () => {
  test('finds the names in a realistic sentence, without the weekday', () => {
    const found = byKey(extractCandidates({ text: 'Apple unveiled the iPhone 17 in Cupertino on Tuesday' }));
    assert.equal(found.get('apple')?.type, 'entity');
    assert.equal(found.get('iphone 17')?.type, 'entity');
    assert.equal(found.get('iphone 17')?.surface, 'iPhone 17');
    assert.equal(found.get('cupertino')?.type, 'entity');
    assert.equal(found.has('tuesday'), false);
  });

  test('dates and amounts are not names; a month that is also a word is one only when capitalised', () => {
    const found = byKey(
      extractCandidates({
        text: 'Thousands joined the climate march in Berlin on Saturday, raising 5 million in March',
      }),
    );
    assert.equal(found.get('berlin')?.type, 'entity');
    assert.ok(found.has('climate march'));
    for (const key of ['thousand', 'saturday', 'march', 'million']) assert.equal(found.has(key), false, key);
  });

  test('multi-word names and connectors stay together', () => {
    const found = byKey(
      extractCandidates({
        text: 'Arsenal beat Manchester United 3-1 in the Premier League, and the Bank of England held rates.',
      }),
    );
    for (const key of ['arsenal', 'manchester united', 'premier league', 'bank of england']) {
      assert.equal(found.get(key)?.type, 'entity', key);
    }
    assert.equal(found.has('manchester united 3 1'), false);
  });

  test('capitalised words inside a name join it whatever their tag; a title colon joins two names', () => {
    const found = byKey(
      extractCandidates({ text: 'The Harbor City Hawks lead the basketball playoff series 3-1.' }),
    );
    assert.equal(found.get('harbor city hawk')?.surface, 'Harbor City Hawks');
    for (const key of ['harbor', 'city', 'hawk']) assert.equal(found.has(key), false, key);

    const film = byKey(extractCandidates({ text: 'Really love Starfall: Echoes! #StarfallEchoes' }));
    assert.equal(film.get('starfall echo')?.type, 'hashtag', 'the name and the hashtag are one trend');
    assert.equal(film.has('starfall'), false);
    // A label before a colon is not part of the name that follows.
    const label = byKey(
      extractCandidates({ text: 'Breaking: Senate passes the budget. Update: Biden signs it.' }),
    );
    for (const key of ['breaking senate', 'update biden']) assert.equal(label.has(key), false, key);
    assert.ok(label.has('senate') || label.has('biden'));
  });

  test('a hyphenated name is one name (Metro-North, Lac-Mégantic), not two fragments', () => {
    const train = byKey(
      extractCandidates({ text: 'Police say a Metro-North passenger train has derailed in New York City' }),
    );
    assert.equal(train.get('metro north')?.surface, 'Metro-North');
    for (const key of ['metro', 'north']) assert.equal(train.has(key), false, key);
    const town = byKey(
      extractCandidates({ text: 'Explosion in Lac-Mégantic tonight, the centre is on fire' }),
    );
    assert.equal(town.get('lac megantic')?.surface, 'Lac-Mégantic');
    for (const key of ['lac', 'mégantic']) assert.equal(town.has(key), false, key);
    // A dash between spaced words is punctuation, not a hyphen: the names stay apart.
    const dash = byKey(extractCandidates({ text: 'We flew from Lisbon - Porto was closed' }));
    assert.equal(dash.has('lisbon porto'), false);
  });

  test('ordinals, idioms and everyday nouns are not trends on their own', () => {
    const found = byKey(
      extractCandidates({
        text: 'Cities open cooling centres as the heatwave continues. Bitcoin ETF flows were positive for the fifth day in a row.',
      }),
    );
    // A single common word in lower case is no key either (`heatwave`): a word alone must be a name or a hashtag.
    for (const key of ['city', 'fifth day', 'day', 'row', 'flow', 'heatwave']) {
      assert.equal(found.has(key), false, key);
    }
    assert.ok(found.has('bitcoin etf'));
    assert.ok(byKey(extractCandidates({ text: 'Day 5 of the #heatwave' })).has('heatwave'));
  });

  test('hashtags become hashtag candidates and keep their # in the surface', () => {
    const candidates = extractCandidates({ text: 'RT @someone: #OpenAI ships GPT-5 #MachineLearning lol' });
    const found = byKey(candidates);
    assert.deepEqual(found.get('openai'), { key: 'openai', surface: '#OpenAI', type: 'hashtag' });
    assert.equal(found.get('machine learning')?.type, 'hashtag');
    assert.equal(found.has('rt'), false);
    assert.equal(found.has('lol'), false);
    assert.equal(found.has('someone'), false);
  });

  test('explicit keywords are honoured, normalised and noise among them dropped', () => {
    const found = byKey(
      extractCandidates({
        text: 'Nothing much here.',
        keywords: ['Large Language Models', 'the', 'EVs', ''],
      }),
    );
    assert.deepEqual(found.get('large language model'), {
      key: 'large language model',
      surface: 'Large Language Models',
      type: 'keyword',
    });
    assert.equal(found.get('ev')?.type, 'keyword');
    assert.equal(found.has('the'), false);
  });

  test('one candidate per key with the best type: hashtag > entity > keyword', () => {
    const candidates = extractCandidates({
      text: 'OpenAI said today that #OpenAI will open an office. OpenAI!',
      keywords: ['openai'],
    });
    const openai = candidates.filter((c) => c.key === 'openai');
    assert.equal(openai.length, 1);
    assert.equal(openai[0].type, 'hashtag');
    const entityOverKeyword = extractCandidates({ text: 'Nvidia rallied again.', keywords: ['nvidia'] });
    assert.equal(entityOverKeyword.find((c) => c.key === 'nvidia')?.type, 'entity');
  });

  test('key phrases: adjective/noun chunks, with the compound inside a longer chunk', () => {
    const found = byKey(
      extractCandidates({
        text: 'The machine learning community is excited about new electric vehicle batteries.',
      }),
    );
    assert.equal(found.get('machine learning')?.type, 'keyword');
    assert.ok(found.has('electric vehicle battery') || found.has('electric vehicle'));
    assert.equal(found.has('new'), false);
    assert.equal(found.has('community is excited'), false);
  });

  test('word classes come from capitals, word lists and suffixes: verbs end phrases, adjectives are no names', () => {
    const keys = (text: string) => extractCandidates({ text }).map((c) => c.key);
    // A verb after the noun it follows ends the phrase (a tagger once read `hits`, `rises` as nouns here).
    assert.deepEqual(keys('Powerful earthquake hits Costa Rica'), ['costa rica', 'powerful earthquake']);
    assert.deepEqual(keys('Death toll rises to 12 after the factory collapse in Savar'), [
      'savar',
      'death',
      'death toll',
      'factory collapse',
    ]);
    // A noun that is also a verb stays a noun where no verb is due (`meteor shower`), not after `to`.
    assert.ok(keys('Witnesses saw a meteor shower over Chelyabinsk').includes('meteor shower'));
    const rates = keys('Economists expect the central bank to cut rates');
    assert.ok(
      rates.includes('central bank') && !rates.includes('rate') && !rates.includes('cut rate'),
      `${rates}`,
    );
    // Imperatives, adjectives and interjections opening a sentence are not names.
    assert.deepEqual(keys('Stay safe everyone. Praying for Colorado. Wow.'), ['colorado']);
    assert.deepEqual(keys('Hate how the update turned out'), []);
    // An opener followed by a name joins it; contractions are no words of their own.
    assert.deepEqual(keys("New York can't sleep"), ['new york']);
  });

  test('a sentence-case title counts; a Title Case headline is not read for names', () => {
    const sentence = byKey(extractCandidates({ title: 'Tsunami warning for Japan', text: 'Stay safe.' }));
    assert.equal(sentence.get('japan')?.type, 'entity');
    assert.ok(sentence.has('tsunami warning'));
    const headline = extractCandidates({
      title: 'Strong Earthquake Hits Northern Japan Coast',
      text: 'Stay safe.',
    });
    assert.deepEqual(headline, []);
  });

  test('non-English signals keep hashtags and keywords only', () => {
    const candidates = extractCandidates({
      text: 'Le gouvernement annonce la #Réforme des retraites avec Emmanuel Macron',
      keywords: ['retraites'],
      lang: 'fr',
    });
    assert.deepEqual(
      candidates.map((c) => [c.key, c.type]),
      [
        ['reforme', 'hashtag'],
        ['retraite', 'keyword'],
      ],
    );
  });

  test('caps the number of candidates per signal', () => {
    const tags = Array.from({ length: 30 }, (_, i) => `#topic${String.fromCharCode(97 + (i % 26))}${i}`);
    const text = `${tags.join(' ')} Arsenal Chelsea Liverpool Everton Fulham Brentford`;
    const candidates = extractCandidates({ text, keywords: ['alpha', 'beta', 'gamma'] });
    assert.ok(candidates.length <= DEFAULT_MAX_CANDIDATES);
    assert.equal(extractCandidates({ text }, { max: 3 }).length, 3);
  });

  test('empty and odd input gives no candidates and no error', () => {
    assert.deepEqual(extractCandidates({ text: '' }), []);
    assert.deepEqual(extractCandidates({ text: '   \n\t ' }), []);
    assert.deepEqual(extractCandidates({ text: '🚀🚀🚀 !!! ... 12345' }), []);
    assert.deepEqual(extractCandidates({ text: 'lol', title: null, keywords: null, lang: null }), []);
  });

  test('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.option(fc.string()), (text, title) => {
        const candidates = extractCandidates({ text, title });
        for (const c of candidates) assert.equal(normaliseKey(c.key), c.key);
      }),
      { numRuns: 300, seed: 20_261_125 },
    );
  });

  test('is deterministic', () => {
    const signal = {
      title: 'Fed signals rate cut',
      text: 'Jerome Powell said the Federal Reserve could cut interest rates in March. #Fed #Economy',
    };
    assert.deepEqual(extractCandidates(signal), extractCandidates(signal));
  });

  test('throughput on short texts (benchmark log, no timing assertion)', () => {
    warmUp();
    const samples = [
      'Apple unveiled the iPhone 17 in Cupertino on Tuesday',
      'RT @user: #OpenAI just released GPT-5 and the machine learning community is buzzing https://t.co/abc',
      'Arsenal beat Manchester United 3-1 in the Premier League on Sunday, with Bukayo Saka scoring twice.',
      'A magnitude 6.2 earthquake struck near Tokyo, Japan; no tsunami warning was issued.',
      'The Federal Reserve left interest rates unchanged as inflation cooled in March.',
      'Taylor Swift announces new tour dates for Europe #ErasTour',
      'Heavy rain and flash flooding closed roads across Yorkshire this morning',
      'Nvidia shares hit a record as demand for AI chips keeps growing',
    ];
    for (let i = 0; i < 1000; i++) extractCandidates({ text: samples[i % samples.length] }); // JIT warm-up
    const n = 5000;
    let count = 0;
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      count += extractCandidates({ text: `${samples[i % samples.length]} ${i}` }).length;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const perSecond = Math.round(n / seconds);
    console.log(`# extraction throughput: ${perSecond} texts/s (${n} short texts, ${count} candidates)`);
    assert.ok(count > 0);
  });
});

describe('titleFrom', () => {
  test('the most frequent surface form wins', () => {
    assert.equal(
      titleFrom(
        new Map([
          ['openai', 3],
          ['OpenAI', 5],
          ['#OpenAI', 2],
        ]),
      ),
      'OpenAI',
    );
  });

  test('ties prefer a form with capitals, then lexical order', () => {
    assert.equal(
      titleFrom(
        new Map([
          ['openai', 4],
          ['OpenAI', 4],
        ]),
      ),
      'OpenAI',
    );
    assert.equal(
      titleFrom(
        new Map([
          ['OpenAI', 4],
          ['openai', 4],
        ]),
      ),
      'OpenAI',
    );
    assert.equal(
      titleFrom(
        new Map([
          ['Open AI', 2],
          ['OpenAI', 2],
          ['#OpenAI', 2],
        ]),
      ),
      '#OpenAI',
    );
    assert.equal(
      titleFrom(
        new Map([
          ['zeta', 1],
          ['alpha', 1],
        ]),
      ),
      'alpha',
    );
  });

  test('does not depend on insertion order', () => {
    const entries: [string, number][] = [
      ['machine learning', 3],
      ['Machine Learning', 3],
      ['#MachineLearning', 3],
      ['ML', 1],
    ];
    const forward = titleFrom(new Map(entries));
    const backward = titleFrom(new Map([...entries].reverse()));
    assert.equal(forward, backward);
    assert.equal(forward, '#MachineLearning');
  });

  test('empty map gives an empty title', () => {
    assert.equal(titleFrom(new Map()), '');
  });
});
