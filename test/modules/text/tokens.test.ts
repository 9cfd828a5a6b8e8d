import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  MEMO_LIMIT,
  simpleTokens,
  tokenize,
  tokenizerMemory,
  WINK_RECYCLE_CHUNKS,
} from '../../../src/modules/text/tokens.ts';
import { newWink as winkInstance } from '../../../src/modules/text/wink.ts';

// A wink-nlp instance of the test's own: the tokens the memo hands out must be the ones wink gives the whole text.
const newWink = () => winkInstance([]);
const wink = newWink();

// wink remembers the out-of-vocabulary tokens it met, and they can change how it splits a chunk later
// ("today's..." leaves "today's" a lexeme, read whole from then on): compare instances with the same history.
function winkTokens(text: string, instance = wink) {
  const tokens = instance.readDoc(text).tokens();
  return {
    values: tokens.out(instance.its.value) as string[],
    types: tokens.out(instance.its.type) as string[],
    spaces: tokens.out(instance.its.precedingSpaces) as string[],
  };
}

const TEXTS = [
  "I cannot go, don't!  Gonna see U.S. officials at 5pm :) #Fire @bob http://x.com/a?b=1 e-mail me $5.00",
  'Line one.\nLine two\t\ttab  x\u00a0y and\u2009thin\u202fspaces',
  "wasn't it?!... Mr. Smith's dog's bone (Reuters) \"quoted\" end.)",
  'Metro-North, Lac-Mégantic, state-of-the-art COVID-19 F-16s AT&T Q&A 100% 1,000 3.5m #1 24/7',
  'RT @ManuAhia: E anche oggi non è un buongiorno... Il #terremoto è la prova 😀😀 www.x.org/p',
  "THANK YOU: Dozens of fire trucks travelled from across NSW to help today's... http://t.co/dDc3b3Sxyh",
  '   leading spaces, trailing spaces   ',
  '\r\n\r\nCRLF lines\r\nand a tab\tbetween',
  '',
  // An ideographic space is no separator of wink's: it stays inside a chunk, and wink drops it from the tokens.
  'Quake 8:42am\u3000http://t.co/mwsMLQ3Z near Sendai\u3000\u3000now M3.5 発生',
];

describe('tokenize (wink-nlp tokens through the chunk memo)', () => {
  test('gives the values, types and preceding spaces wink gives the whole text', () => {
    for (const text of TEXTS) assert.deepEqual(tokenize(text), winkTokens(text), JSON.stringify(text));
  });

  test('a chunk seen before gives the same tokens again, wherever it stands', () => {
    const first = tokenize("Don't panic: #Quake near Tokyo.");
    const again = tokenize("Don't panic: #Quake near Tokyo.");
    assert.deepEqual(again, first);
    // The same chunks after other spacing: only the spacing differs.
    const spaced = tokenize("Don't    panic:\u00a0#Quake near\nTokyo.");
    assert.deepEqual(spaced.values, [...first.values.slice(0, 6), '\n', ...first.values.slice(6)]);
    assert.deepEqual(spaced.spaces, ['', '', '    ', '', '\u00a0', ' ', '', '', '']);
  });

  test('agrees with wink on arbitrary mixes of words, punctuation, digits, emoji and spacing', () => {
    const pieces = [
      'the',
      'Crestwatch',
      "isn't",
      'U.S.',
      'e.g.',
      '#Tag',
      '@user',
      'https://t.co/x1',
      '5pm',
      '$',
      '3.14',
      '1990s',
      '2nd',
      ':)',
      '😀',
      '...',
      '!',
      '?',
      ',',
      '"',
      '(',
      ')',
      '-',
      '—',
      "'s",
      'n’t',
      'café',
      'x2',
      ' ',
      '  ',
      '\u00a0',
      '\n',
      '\t',
      '\r\n',
      '\u3000',
      '地震',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        assert.deepEqual(tokenize(text), winkTokens(text), JSON.stringify(text));
      }),
      { numRuns: 500, seed: 20_261_201 },
    );
  });
});

// Chunks of every shape the fast path reads and of every case it leaves to wink: words (short, capitalised, upper
// case, ones that look like other token types), the contractions wink expands, abbreviations it keeps whole,
// currency codes, mentions and hashtags, with marks before and after them (written for the test, not taken from
// any data set; the fast path was also compared with wink on every chunk of the shared real posts).
const words = (list: string) => list.split(' ');
const CORES = words(
  'the flood Japan Reuters NASA iPhone McDonald x a A I i is to ok ' +
    // Words that look like other token types to wink's patterns.
    'am pm hrs th st nd s RT http www com XD xD D P o O X ' +
    'Mr mr MR Mrs Dr Jan Inc etc vs No no St Co Gov Sept Calif ' +
    'cannot Cannot CANNOT dont DONT Dont ive Ive wont youre thereare gonna ' +
    'USD usd Usd AUD AUDIO xINRx GBP gbpx EUR ' +
    '@user @User_1 @_ @1 @u #flood #Flood2013 #f @ # #1 #a_b',
);
// Marks before and after a word ('' for none).
const LEADS = ['', ...words(`( [ { " “ ‘ (" “( ' - … *`)];
const TAILS = [
  '',
  ...words(`. , : ; ! ? ) ] } " / ’ ” … ' - * _ 1 .. ... .... !! !!! ?! ?!? ?? ,, ), ). .) !) ." .” ," …"`),
  ...words(`., .! ..! ...) !... ,... ). ).. ): ); :) ;) :( :/ :? :: /: 's ’s % .com .2 …)`),
];
const LINKS = words(
  'http://t.co/abc123 https://t.co/X27J http://t.co https://t.co/ http://t.co/X27J… http://t.co/a. ' +
    'http://t.co/a) http://t.co/a?b=1&c#d http://t.co/a” http://t.co/a\u3000b http://t.co/a…b HTTP://t.co/a ' +
    'http://t.com/a http://bit.ly/a http:/t.co/a ftp://t.co/a',
);

describe('the fast path (chunks read by hand)', () => {
  // A fresh instance of the test's own: wink's answer for a chunk can depend on what its instance read before.
  const reader = newWink();
  const winkChunk = (chunk: string) => {
    const tokens = reader.readDoc(chunk).tokens();
    return {
      values: tokens.out(reader.its.value) as string[],
      types: tokens.out(reader.its.type) as string[],
    };
  };

  test("gives wink's tokens for every chunk it reads, of each shape", () => {
    const chunks = [
      ...LINKS,
      ...LEADS.flatMap((lead) => CORES.flatMap((core) => TAILS.map((t) => lead + core + t))),
    ];
    let read = 0;
    for (const chunk of chunks) {
      const simple = simpleTokens(chunk);
      if (simple === null) continue;
      read++;
      assert.deepEqual(simple, winkChunk(chunk), JSON.stringify(chunk));
    }
    // Not vacuous: the shapes the fast path is for are read by it.
    assert.ok(read > chunks.length / 4, `${read} of ${chunks.length}`);
    const shapes = [
      'Japan',
      'said,',
      'is.',
      '"help!"',
      '(Reuters)',
      '“quoted”',
      'end...',
      'wow!!!',
      'what?!',
      'x,',
    ];
    for (const chunk of [...shapes, '@user:', '(@user)', '#flood.', '#Flood2013', 'http://t.co/abc123'])
      assert.ok(simpleTokens(chunk) !== null, chunk);
    assert.deepEqual(simpleTokens('(Japan),'), {
      values: ['(', 'Japan', ')', ','],
      types: ['punctuation', 'word', 'punctuation', 'punctuation'],
    });
    assert.deepEqual(simpleTokens('end...'), { values: ['end', '...'], types: ['word', 'punctuation'] });
    assert.deepEqual(simpleTokens('"@user:'), {
      values: ['"', '@user', ':'],
      types: ['punctuation', 'mention', 'punctuation'],
    });
  });

  test('leaves to wink the words it expands, abbreviations, emoticons, numbers and other characters', () => {
    const expanded = ['cannot', 'Cannot', 'CANNOT', 'DONT', 'dont.', '(Ive', 'youre!!', 'thereare'];
    const whole = ['Mr.', 'mr.', 'U.S.', 'A.', 'i.', 'Jan.', 'etc.', 'Inc.,', '(Dr.', 'e.g.'];
    const emoticons = ['word:)', 'word;)', 'word):', 'word:/', 'word:?', ':)'];
    const others = ['2013', '07', '5pm', "don't", 'Russia’s', 'state-of-the-art', 'café', '#a_b', '@', 'USD'];
    const more = ['AUDIO!!', '(end...', 'end..!', 'http://bit.ly/a', 'http://t.co/a\u3000b', '...', '', '\n'];
    for (const chunk of [...expanded, ...whole, ...emoticons, ...others, ...more]) {
      assert.equal(simpleTokens(chunk), null, JSON.stringify(chunk));
      assert.deepEqual(tokenize(chunk), winkTokens(chunk, reader), JSON.stringify(chunk));
    }
    assert.deepEqual(simpleTokens('cannot,'), null);
    assert.deepEqual(tokenize('Cannot'), {
      values: ['Can', 'not'],
      types: ['word', 'word'],
      spaces: ['', ''],
    });
  });

  test('chunks it reads neither fill the memo nor count towards replacing wink', () => {
    const before = tokenizerMemory();
    tokenize('Unseen qzxv, "yqzw!" (Wqxz) [qqzx]… @zzqw_9: #Qxzw7. http://t.co/qZxW9 zzqx...');
    assert.deepEqual(tokenizerMemory(), before);
    // Chunks it leaves to wink do, once each.
    tokenize("qzxv's qzxv's 2031x");
    assert.deepEqual(tokenizerMemory(), {
      memoChunks: before.memoChunks + 2,
      winkChunks: before.winkChunks + 2,
    });
  });
});

describe('tokenizer memory', () => {
  test('the memo and wink instance stay bounded however many distinct chunks arrive, and tokens stay right', () => {
    const words = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `w${(from + i).toString(36)}0x`).join(' ');
    let peakMemo = 0;
    let recycled = false;
    let lastRead = 0;
    for (let from = 0; from < WINK_RECYCLE_CHUNKS + 10_000; from += 5_000) {
      tokenize(words(from, 5_000));
      const { memoChunks, winkChunks } = tokenizerMemory();
      peakMemo = Math.max(peakMemo, memoChunks);
      if (winkChunks < lastRead) recycled = true;
      lastRead = winkChunks;
    }
    assert.ok(peakMemo <= MEMO_LIMIT, `memo held ${peakMemo} chunks`);
    assert.ok(recycled, 'the wink instance was replaced');
    // The replaced instance reads as a new one does.
    const text = "After today's quake, #Tokyo's trains run again: 5pm update at https://t.co/a1 :)";
    assert.deepEqual(tokenize(text), winkTokens(text, newWink()));
  });
});
